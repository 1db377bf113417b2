import { echoMask, MaskedValues } from './session-values';

describe('echoMask', () => {
  const values = new Map([['Jn7Xm2vL9pT4Q', 'password']]);

  it('masks a value shown as a whole word, with its kind', () => {
    expect(echoMask('connecting with Jn7Xm2vL9pT4Q now', values)).toBe(
      'connecting with [REDACTED:password] now',
    );
    expect(echoMask('a="Jn7Xm2vL9pT4Q";b=Jn7Xm2vL9pT4Q', values)).toBe(
      'a="[REDACTED:password]";b=[REDACTED:password]',
    );
  });

  it('leaves a longer word that holds the value, and a text without it, as they are', () => {
    const text = 'xJn7Xm2vL9pT4Qx and nothing else';
    expect(echoMask(text, values)).toBe(text);
    expect(echoMask('plain', values)).toBe('plain');
    expect(echoMask('anything', new Map())).toBe('anything');
  });

  it('never masks inside a marker the text shows already', () => {
    const marker = new Map([['REDACTED:password', 'generic']]);
    const text = 'was [REDACTED:password] before';
    expect(echoMask(text, marker)).toBe(text);
  });
});

describe('MaskedValues', () => {
  it('knows nothing of a session until told, then only what is new', () => {
    const m = new MaskedValues();
    const all = new Map([
      ['AAAAAAAA1', 'k'],
      ['BBBBBBBB2', 'k'],
    ]);
    expect(m.known('/s')).toBeUndefined();
    expect([...m.unmasked('/s', all).keys()]).toEqual(['AAAAAAAA1', 'BBBBBBBB2']);
    m.masked('/s', new Map([['AAAAAAAA1', 'k']]));
    expect([...m.unmasked('/s', all).keys()]).toEqual(['BBBBBBBB2']);
    m.forget('/s');
    expect(m.known('/s')).toBeUndefined();
  });
});

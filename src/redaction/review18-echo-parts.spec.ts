import { Redactor } from './redactor';

/**
 * Review 18 (H5): a secret found in one argument of a tool call and repeated in another
 * (`replace_file_content`'s TargetContent `DB_PASSWORD=Mn2b…` and ReplacementContent
 * `# old was Mn2b…`) was masked in the record's raw line, one text whose echoes are masked,
 * and clear in the arguments as GraphQL, REST and exports serve them: redactJson masked each
 * string alone. Now a JSON value's strings are masked with the secret values found in any of
 * them. And a transcript downloaded whole (more than 32 secrets: a dump, no echo looked for)
 * showed the same value clear: each of its lines is searched for its own echoes.
 */

const counted: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (kind) => counted.push(kind));
const P = '[REDACTED:password]';
const V = 'Mn2bVc6XzA8sDf4G';

const EDIT = {
  TargetFile: '/w/.env',
  TargetContent: `DB_PASSWORD=${V}\n`,
  ReplacementContent: `DB_PASSWORD=changed\n# old was ${V}\n`,
};
const EDIT_MASKED = {
  TargetFile: '/w/.env',
  TargetContent: `DB_PASSWORD=${P}\n`,
  ReplacementContent: `DB_PASSWORD=changed\n# old was ${P}\n`,
};

/** A record's line holding the call, as the full tier stores it. */
const callLine = (args: unknown) =>
  JSON.stringify({ step_index: 10, tool_calls: [{ name: 'replace_file_content', args }] });
/** A transcript of 40 records, each with a password, then the call's line. */
const transcript = (args: unknown) =>
  Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({ step_index: i, content: `export DB_PASSWORD=Line${i}Secret77` }),
  ).join('\n') +
  '\n' +
  callLine(args) +
  '\n';

beforeEach(() => (counted.length = 0));

describe('a secret found in one argument is masked where another argument repeats it', () => {
  it('masks the echo in the arguments as served (redactJson), counted once each', () => {
    expect(r.redactJson(EDIT)).toEqual(EDIT_MASKED);
    expect(counted).toEqual(['password', 'password']);
  });

  it('serves what the raw line shows, decoded and as JSON inside JSON', () => {
    expect(JSON.parse(r.redactText(callLine(EDIT)))).toEqual(JSON.parse(callLine(EDIT_MASKED)));
    const b = Buffer.from(callLine(EDIT));
    r.maskUtf8(b);
    expect(b.toString()).toBe(
      callLine(EDIT_MASKED).replace(/\[REDACTED:password\]/g, '[REDACTED:passwo'),
    );
    // The compact tier: every argument a JSON text.
    const compact = Object.fromEntries(
      Object.entries(EDIT).map(([k, v]) => [k, JSON.stringify(v)]),
    );
    expect(r.redactJson(compact)).toEqual(
      Object.fromEntries(Object.entries(EDIT_MASKED).map(([k, v]) => [k, JSON.stringify(v)])),
    );
  });

  it('masks a value a secret-named key masked whole, where another string repeats it', () => {
    expect(
      r.redactJson({ password: 'Hx7pLm2qRt9w', note: 'the old one was Hx7pLm2qRt9w' }),
    ).toEqual({
      password: P,
      note: `the old one was ${P}`,
    });
    expect(r.redactJson([{ a: `mysql -uroot -p${V}` }, [`logged in with ${V}`]])).toEqual([
      { a: `mysql -uroot -p${P}` },
      [`logged in with ${P}`],
    ]);
  });

  it('masks the echo in a transcript of more secrets than 32, downloaded whole', () => {
    const masked = r.redactText(transcript(EDIT)).split('\n');
    expect(masked[40]).toBe(callLine(EDIT_MASKED));
    expect(masked[0]).toBe(JSON.stringify({ step_index: 0, content: `export DB_PASSWORD=${P}` }));
    const b = Buffer.from(transcript(EDIT));
    r.maskUtf8(b);
    expect(b.toString().split('\n')[40]).toBe(
      callLine(EDIT_MASKED).replace(/\[REDACTED:password\]/g, '[REDACTED:passwo'),
    );
  });
});

describe('what stays clear', () => {
  const CLEAR: unknown[] = [
    // A replacement that names no found value.
    { TargetContent: 'DB_PASSWORD=changeme\n', ReplacementContent: 'DB_PASSWORD=changed\n' },
    { Description: 'rotate the password', Instruction: 'password rotation' },
    // A value inside a longer word is not an echo.
    { a: 'plain', b: `x${V}x and ${V}_2` },
    ['Mn2bVc6XzA8sDf4G is a word here', 'no key names it'],
  ];
  it.each(CLEAR.map((c) => [JSON.stringify(c), c]))('%s', (_, value) => {
    expect(r.redactJson(value)).toBe(value);
  });

  it('leaves values under 8 characters, and a longer word holding the value', () => {
    expect(r.redactJson({ a: 'password: hunter2', b: 'then hunter2 again' })).toEqual({
      a: `password: ${P}`,
      b: 'then hunter2 again',
    });
    expect(r.redactJson({ a: `DB_PASSWORD=${V}`, b: `x${V}x` })).toEqual({
      a: `DB_PASSWORD=${P}`,
      b: `x${V}x`,
    });
  });

  it('looks for no echo of one line of a dump in another', () => {
    const lines = Array.from({ length: 33 }, (_, i) => `PASSWORD_${i}=Secr3tValue${i}x`);
    expect(r.redactText(`${lines.join('\n')}\nSecr3tValue0x`).endsWith('\nSecr3tValue0x')).toBe(
      true,
    );
    // No marker a string shows is taken for an echo of a value that spells part of it.
    const out = r.redactJson({ api_key: 'REDACTED:password', b: `was ${P}` }) as Record<
      string,
      string
    >;
    expect(out.b).toBe(`was ${P}`);
  });
});

describe('linear time', () => {
  const MB = 1 << 20;
  const fill = (u: string) => u.repeat(Math.ceil(MB / u.length)).slice(0, MB);
  const cpuMs = (f: () => unknown) => {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  // Linear: a few hundred ms; the bound only tells it from a scan per echo over every mask.
  it('masks the echoes of 1 MB strings dense with masks and echoes in < 3 s of CPU', () => {
    const slow = [
      { a: 'password=Xq7aaaaaaa', b: fill('password=x Xq7aaaaaaa ') },
      { a: 'password=Xq7aaaaaaa', b: fill('Xq7aaaaaaa ') },
    ]
      .map((v) => cpuMs(() => r.redactJson(v)))
      .filter((ms) => ms >= 3000);
    expect(slow).toEqual([]);
  });
});

import { CliError } from './errors';
import { flavored } from './flavor';
import type { Source } from './source/source';

/** A source that records what it was asked, serving two flavors. */
function fake(): { source: Source; asked: unknown[] } {
  const asked: unknown[] = [];
  const source: Source = {
    remote: null,
    home: () => Promise.resolve('configured'),
    run: <T>(document: string, variables?: Record<string, unknown>) => {
      asked.push([document, variables]);
      return Promise.resolve({} as T);
    },
    list: () => Promise.reject(new Error('not asked')),
    raw: (id, index, compact, flavor) => {
      asked.push(['raw', id, index, compact, flavor]);
      return Promise.resolve(Buffer.from('line'));
    },
    flavors: () => Promise.resolve(['antigravity-acp', 'antigravity-ide']),
    close: () => Promise.resolve(),
  };
  return { source, asked };
}

describe('flavored', () => {
  it('is the source itself without a flavor', async () => {
    const { source } = fake();
    expect(await flavored(source, undefined)).toBe(source);
  });

  it('asks session documents and raw for the copy, leaves other documents as they are', async () => {
    const { source, asked } = fake();
    const f = await flavored(source, 'antigravity-acp');
    await f.run('query S($id: String!, $flavor: String) { x }', { id: 'abcd' });
    await f.run('{ roots { flavor } }');
    await f.raw('abcd', 2, true);
    expect(f.flavor).toBe('antigravity-acp');
    expect(asked).toEqual([
      ['query S($id: String!, $flavor: String) { x }', { id: 'abcd', flavor: 'antigravity-acp' }],
      ['{ roots { flavor } }', undefined],
      ['raw', 'abcd', 2, true, 'antigravity-acp'],
    ]);
  });

  it('refuses a flavor no root serves, naming the ones served, before asking anything', async () => {
    const { source, asked } = fake();
    const err = await flavored(source, 'nosuch').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect([(err as CliError).exitCode, (err as CliError).message]).toEqual([
      1,
      'no such flavor: nosuch (flavors served: antigravity-acp, antigravity-ide)',
    ]);
    expect(asked).toEqual([]);
  });
});

import { dirsOf, E5_IDE, IDE, S, setup } from '../../test/doubles/home-setup';
import { Principal } from '../auth/principal';
import { Environment, IndexState, SearchField } from '../graphql/enums';

/** Which sessions and fields a search covers, its argument errors, and the index status. */

describe('SearchService filters', () => {
  it('passes filter.sessions through the listing filter, summaries included', async () => {
    const { index, hits } = setup();
    // The filter names the IDE root, so eeee0005 is the IDE copy its ACP twin shadows (every
    // copy is reachable through the roots that hold it).
    expect(await hits({ filter: { sessions: { environment: [Environment.IDE] } } })).toEqual([
      'eeee0005 CONTENT 0',
      'aaaa0001 USER_REQUEST 0',
      'aaaa0001 CONTENT 1',
      'cccc0003 ARTIFACT plan.md',
    ]);
    expect(index.argsOf('search')[0][0]).toMatchObject({ dirs: dirsOf(S.c3, S.a1, E5_IDE) });
    // errorCount > 0: aaaa0001 and eeee0005; for the IDE key, its own copy of eeee0005.
    expect(await hits({ filter: { sessions: { hasErrors: true } } })).toEqual([
      'eeee0005 CONTENT 0',
      'aaaa0001 USER_REQUEST 0',
      'aaaa0001 CONTENT 1',
    ]);
    expect(await hits({ filter: { sessions: { hasErrors: false } } }, IDE)).toEqual([
      'cccc0003 ARTIFACT plan.md',
    ]);
  });

  it('passes filter.fields (empty: every field)', async () => {
    const { index, hits } = setup();
    const fields = [SearchField.CONTENT, SearchField.ARTIFACT];
    expect(await hits({ filter: { fields } })).toEqual([
      'eeee0005 CONTENT 0',
      'aaaa0001 CONTENT 1',
      'cccc0003 ARTIFACT plan.md',
    ]);
    await hits({ filter: { fields: [] } });
    expect(index.argsOf('search').map(([r]) => (r as { fields: unknown }).fields)).toEqual([
      fields,
      null,
    ]);
  });

  it('narrows to filter.session: exact id, unique prefix, the caller’s own copy', async () => {
    const { index, hits } = setup();
    expect(await hits({ filter: { session: 'AAAA0001' } })).toEqual([
      'aaaa0001 USER_REQUEST 0',
      'aaaa0001 CONTENT 1',
    ]);
    expect(index.argsOf('search')[0][0]).toMatchObject({ dirs: dirsOf(S.a1) });
    expect(await hits({ filter: { session: 'bbbb' } })).toEqual(['bbbb0002 TOOL_CALLS 2']);
    // aaaa0009 (ACP) is hidden from the IDE key: the prefix is not ambiguous for it.
    expect(await hits({ filter: { session: 'aaaa' } }, IDE)).toEqual([
      'aaaa0001 USER_REQUEST 0',
      'aaaa0001 CONTENT 1',
    ]);
    expect(await hits({ filter: { session: 'eeee0005' } }, IDE)).toEqual(['eeee0005 CONTENT 0']);
    expect(index.argsOf('search').at(-1)![0]).toMatchObject({
      dirs: dirsOf(E5_IDE),
    });
  });

  it('gives no hits, without asking the index, for an unknown, hidden or filtered-out session', async () => {
    const { index, run } = setup();
    const empty = { edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 };
    expect(await run({ filter: { session: 'ffff0000' } })).toEqual(empty);
    expect(await run({ filter: { session: 'bbbb0002' } }, IDE)).toEqual(empty);
    const otherRoot = { session: 'aaaa0001', sessions: { environment: [Environment.ACP] } };
    expect(await run({ filter: otherRoot })).toEqual(empty);
    expect(await run({ filter: { session: 'aaaa0001', sessions: { hasErrors: false } } })).toEqual(
      empty,
    );
    expect(index.calls).toEqual([]);
  });

  it('refuses bad arguments with the contract codes, naming what is accepted', async () => {
    const { failure } = setup();
    expect(await failure({ filter: { session: 'aaaa' } })).toEqual([
      'AMBIGUOUS_SESSION_ID',
      '"aaaa" matches 2 sessions',
    ]);
    expect(await failure({ filter: { session: 'aaa' } })).toEqual([
      'BAD_USER_INPUT',
      '"filter.session" must be a full session id or a prefix of at least 4 characters',
    ]);
    expect(await failure({ query: 'ab' })).toEqual([
      'BAD_USER_INPUT',
      'term 1 of "query" has 2 characters; expected terms of at least 3 characters (code points) separated by whitespace, a "quoted phrase" being one term; at most 16 terms and 512 characters (UTF-16 code units)',
    ]);
    expect((await failure({ query: ' ' }))?.[0]).toBe('BAD_USER_INPUT');
    for (const first of [0, 101, 1.5, -1]) {
      expect(await failure({ first })).toEqual([
        'BAD_USER_INPUT',
        '"first" must be an integer from 1 to 100',
      ]);
    }
    expect(await failure({ filter: { sessions: { updatedAfter: new Date('x') } } })).toEqual([
      'BAD_USER_INPUT',
      '"updatedAfter" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z',
    ]);
  });

  it('takes first up to 100, default 20', async () => {
    const { index, run } = setup();
    await run({ first: 100 });
    await run({ first: null });
    expect(index.argsOf('search').map(([r]) => (r as { first: number }).first)).toEqual([100, 20]);
  });
});

describe('SearchService.status', () => {
  it('reports the index over every copy the caller may read, a shadowed one included', async () => {
    const { index, sut } = setup();
    index.progress = {
      state: 'BUILDING',
      indexed: new Set(dirsOf(S.a1, S.b2)),
      bytesIndexed: 1234,
      updatedAt: new Date('2026-06-05T00:00:00Z'),
    };
    const anonymous = await sut.status(Principal.anonymous);
    expect(anonymous).toEqual({
      state: IndexState.BUILDING,
      sessionsIndexed: 2,
      // Six ids, and eeee0005's shadowed IDE copy: a search naming the IDE flavor reads it.
      sessionsTotal: 7,
      bytesIndexed: 1234,
      updatedAt: new Date('2026-06-05T00:00:00Z'),
    });
    expect(await sut.status(IDE)).toMatchObject({ sessionsIndexed: 1, sessionsTotal: 3 });
    expect(index.argsOf('status')[1]).toEqual([dirsOf(S.c3, S.a1, E5_IDE)]);
    index.progress.state = 'READY';
    expect((await sut.status(IDE)).state).toBe(IndexState.READY);
  });
});

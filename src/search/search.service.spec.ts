import { dirsOf, E5_IDE, IDE, label, S, setup } from '../../test/doubles/home-setup';
import { Principal } from '../auth/principal';
import { SearchField, SearchOrder } from '../graphql/enums';

/** What the API asks the index and how it maps the answer: scopes, cursors, paging. */

describe('SearchService.search', () => {
  it('asks the index about the visible sessions, newest first, and maps every field', async () => {
    const { index, run } = setup();
    const page = await run({});
    expect(index.argsOf('search')).toEqual([
      [
        {
          terms: ['login'],
          dirs: dirsOf(S.e5, S.b2, S.c3, S.d4, S.a1, S.a9),
          fields: null,
          order: 'RELEVANCE',
          first: 20,
          after: null,
        },
      ],
    ]);
    expect(page.totalCount).toBe(6);
    expect(page.pageInfo).toEqual({ hasNextPage: false, endCursor: page.edges[5].cursor });
    const [first, , , , , last] = page.edges.map((e) => e.node);
    expect(first).toEqual({
      session: S.b2,
      field: SearchField.TOOL_CALLS,
      position: 2,
      artifact: null,
      snippet: 'run_command\nlogin --check',
      highlights: [{ start: 12, length: 5 }],
      matchCount: 1,
      score: 9,
    });
    expect(last).toEqual({
      session: S.c3,
      field: SearchField.ARTIFACT,
      position: null,
      artifact: 'plan.md',
      snippet: '# Login plan',
      highlights: [{ start: 2, length: 5 }],
      matchCount: 1,
      score: 1,
    });
  });

  it('pages with opaque cursors in both orders; the pages concatenate to the whole list', async () => {
    const { run, hits } = setup();
    const want = {
      RELEVANCE: [
        'bbbb0002 TOOL_CALLS 2',
        'eeee0005 CONTENT 0',
        'aaaa0001 USER_REQUEST 0',
        'dddd0004 OUTPUT 4',
        'aaaa0001 CONTENT 1',
        'cccc0003 ARTIFACT plan.md',
      ],
      // createdAt descending; c3 and d4 share one, so the id decides.
      NEWEST_FIRST: [
        'eeee0005 CONTENT 0',
        'bbbb0002 TOOL_CALLS 2',
        'cccc0003 ARTIFACT plan.md',
        'dddd0004 OUTPUT 4',
        'aaaa0001 USER_REQUEST 0',
        'aaaa0001 CONTENT 1',
      ],
    };
    for (const order of [SearchOrder.RELEVANCE, SearchOrder.NEWEST_FIRST]) {
      expect(await hits({ order, first: 100 })).toEqual(want[order]);
      const seen: string[] = [];
      const more: boolean[] = [];
      let after: string | null = null;
      do {
        const page = await run({ order, first: 4, after });
        seen.push(...page.edges.map((e) => label(e.node)));
        expect(page.totalCount).toBe(6);
        more.push(page.pageInfo.hasNextPage);
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      } while (after);
      expect([seen, more]).toEqual([want[order], [true, false]]);
    }
  });

  it('refuses a cursor of the other order, of another list, or tampered with', async () => {
    const { run, failure } = setup();
    const relevance = (await run({ first: 1 })).pageInfo.endCursor;
    const foreign = 'BAD_USER_INPUT';
    const notOurs =
      '"after" is not a cursor of this list: pass an endCursor or edge cursor from it';
    expect(await failure({ order: SearchOrder.NEWEST_FIRST, after: relevance })).toEqual([
      foreign,
      notOurs,
    ]);
    expect(await failure({ after: 'garbage' })).toEqual([foreign, notOurs]);
    const sessionsCursor = Buffer.from(JSON.stringify(['s:NEWEST_FIRST', 0, 'x'])).toString(
      'base64url',
    );
    expect(await failure({ after: sessionsCursor })).toEqual([foreign, notOurs]);
    const forged = (parts: unknown[]) =>
      Buffer.from(JSON.stringify(['h:RELEVANCE', ...parts])).toString('base64url');
    for (const parts of [
      [9, 'bbbb0002', 2, 6, '', 1],
      [9, 'bbbb0002', -1, 3, '', 1],
      [9, 'bbbb0002', 2.5, 3, '', 1],
      ['9', 'bbbb0002', 2, 3, '', 1],
      [9, 'bbbb0002', 2, 3, ''],
      [9, 'bbbb0002', 2, 3, '', 1, 'extra'],
      [null, 'bbbb0002', 2, 3, '', 1],
      // The last part tells copies apart by the index's number, never by a path.
      [9, 'bbbb0002', 2, 3, '', '/srv/brain/bbbb0002'],
    ]) {
      expect(await failure({ after: forged(parts) })).toEqual([
        foreign,
        '"after" is not a valid cursor',
      ]);
    }
    // A well-formed key continues after it, even when no hit has it exactly.
    const page = await run({ after: forged([8.5, 'a', 0, 0, '', 0]) });
    expect(page.edges.map((e) => e.node.score)).toEqual([8, 5, 4, 3, 1]);
  });

  it('gives a scoped key only its sessions (its own copy of a shadowed id), in totals too', async () => {
    const { index, run, hits } = setup();
    expect(await hits({}, IDE)).toEqual([
      'eeee0005 CONTENT 0',
      'aaaa0001 USER_REQUEST 0',
      'aaaa0001 CONTENT 1',
      'cccc0003 ARTIFACT plan.md',
    ]);
    expect((await run({}, IDE)).edges[0].node).toMatchObject({
      session: E5_IDE,
      snippet: 'login loser copy',
    });
    expect((await run({}, IDE)).totalCount).toBe(4);
    expect(index.argsOf('search')[0][0]).toMatchObject({ dirs: dirsOf(S.c3, S.a1, E5_IDE) });
    const cli = new Principal('cli', new Set(['antigravity-cli']));
    expect(await hits({}, cli)).toEqual(['dddd0004 OUTPUT 4']);
    expect(await hits({}, Principal.nobody)).toEqual([]);
  });

  it('drops a hit the index returns for a session it was not asked about', async () => {
    const { index, run } = setup();
    const [stray] = index.search({
      terms: ['login'],
      dirs: dirsOf(S.b2),
      fields: null,
      order: 'RELEVANCE',
      first: 1,
      after: null,
    }).hits;
    index.extraHits = [stray];
    const page = await run({}, IDE);
    expect(page.edges.map((e) => e.node.session.entry.id)).toEqual([
      'eeee0005',
      'aaaa0001',
      'aaaa0001',
      'cccc0003',
    ]);
  });
});

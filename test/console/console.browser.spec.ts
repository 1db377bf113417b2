import * as path from 'node:path';
import { describeInBrowser, watchedPage, withScreenshot, type Watched } from '../browser/browser';
import {
  axeViolations,
  expectNothingAmiss,
  graphqlOperations,
  operationAsked,
  sessionRows,
  startConsole,
  type ConsoleWorld,
} from './harness';

/**
 * The console in Chromium over the example home: exact contents of the sessions table, a
 * session's header, timeline, commands and changes; filters and permalinks opened cold;
 * navigation by link and by key; axe-core on each page; nothing from another origin.
 */
const EXAMPLE_HOME = path.join(__dirname, '..', '..', 'example-home');

describeInBrowser('the console over the example home', () => {
  let world: ConsoleWorld;
  let w: Watched;
  /** The GraphQL operations the page asked for since last emptied. */
  let operations: string[];
  beforeAll(async () => {
    world = await startConsole(EXAMPLE_HOME);
    w = await watchedPage(world.browser, world.origin);
    operations = graphqlOperations(w.page);
  });
  afterAll(async () => {
    await world?.close();
  });
  afterEach(() => expectNothingAmiss(w));

  const open = async (p: string) => {
    await w.page.goto(`${world.origin}${p}`);
  };

  it('lists the sessions newest first, one row each with the id and the request', async () => {
    await withScreenshot(w.page, 'console-sessions', async () => {
      await open('/');
      expect(await sessionRows(w.page)).toEqual([
        [
          '9e779ff1',
          "a fin de ne pas perdre le logique de l'application et si je perd les infos sur cette appareil, je veux l'historique de conversasation soit preserver et le walk…",
        ],
        ['a704176f', 'comment je peux continuer le travail de ce projet dans une autre appareil ?'],
        [
          '240ff5ee',
          '[baseline-browser-mapping] The data in this module is over two months old. To ensure accurate Baseline data, please update: `npm i baseline-browser-mapping@lat…',
        ],
        [
          'ba5e0000',
          'Refactor @[src/app.ts] like in @[conversation:"Old chat"]. Then update @[README.md] and re-check @[src/app.ts].',
        ],
        ['bad00000', 'Malformed lines'],
        ['ac000000', 'CI: generate tests'],
      ]);
      expect(await w.page.getByTestId('total').innerText()).toBe('6 sessions');
      expect(await w.page.getByRole('table').count()).toBe(1);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('keeps the filters in the URL: opened cold, and rewritten by the filter bar', async () => {
    await withScreenshot(w.page, 'console-filters', async () => {
      await open('/?env=acp');
      expect(await sessionRows(w.page)).toEqual([['ac000000', 'CI: generate tests']]);
      expect(await w.page.getByTestId('total').innerText()).toBe('1 session');
      const envs = w.page.getByRole('group', { name: 'Environment' });
      expect(await envs.getByLabel('acp').isChecked()).toBe(true);
      await envs.getByLabel('acp').uncheck();
      await w.page.getByLabel('Errors').selectOption('true');
      await w.page.getByRole('button', { name: 'Apply' }).click();
      await w.page.waitForURL(`${world.origin}/?errors=true`);
      await w.page.getByTestId('total').filter({ hasText: '2 sessions' }).waitFor();
      expect((await sessionRows(w.page)).map((r) => r[0])).toEqual(['240ff5ee', 'ba5e0000']);
    });
  });

  it('opens a session from its row: header, tabs, every step as step-{index}', async () => {
    await withScreenshot(w.page, 'console-session', async () => {
      await open('/');
      await w.page.getByRole('link', { name: 'ba5e0000' }).click();
      await w.page.waitForURL(`${world.origin}/sessions/ba5e0000-0000-4000-8000-000000000001`);
      await w.page.locator('#step-0').waitFor();
      expect(await w.page.locator('h1').innerText()).toBe(
        'ba5e0000 Refactor @[src/app.ts] like in @[conversation:"Old chat"]. Then update @[README.md] and re-check @[src/app.ts].',
      );
      expect(await w.page.locator('.facts dd').allInnerTexts()).toEqual([
        'ba5e0000-0000-4000-8000-000000000001',
        'ide · antigravity-ide',
        'Claude Opus 4.5 (Thinking)',
        '/work/p',
        '2026-05-28 09:00:00',
        '2026-05-28 09:01:04',
        '16',
        '5',
        '2',
        '0',
      ]);
      expect(await w.page.getByRole('navigation', { name: 'Session views' }).innerText()).toBe(
        'timeline\nchanges\ncommands\nartifacts\nsecrets\nproblems',
      );
      const ids = await w.page.$$eval('article.step', (a) => a.map((e) => e.id));
      expect(ids.slice(0, 4)).toEqual(['step-0', 'step-1', 'step-2', 'step-3']);
      expect(await w.page.locator('#step-3 .tool-call b').innerText()).toBe('run_command');
      expect(await w.page.locator('#step-3 .tool-call a').innerText()).toBe('answered by #4');
      // Each call's outcome under it, closed: the command's exit code (none recorded here) and
      // the diff's counts come with the session's commands and changes, asked for when opened.
      await w.page.locator('#step-6 .outcome').waitFor();
      expect(await w.page.locator('#step-3 .outcome summary').innerText()).toBe('output');
      expect(await w.page.locator('#step-6 .outcome summary').innerText()).toBe('diff');
      await w.page.locator('#step-3 .outcome summary').click();
      await w.page.locator('#step-3 .outcome .badge').waitFor();
      expect(await w.page.locator('#step-3 .outcome summary').innerText()).toBe('exit ? output');
      expect(await w.page.locator('#step-3 .outcome p').innerText()).toBe(
        'No "Output:" line in its result: see step 4.',
      );
      // Not recorded is neither success nor failure: a neutral badge, not a green one.
      expect(await w.page.locator('#step-3 .outcome .badge').getAttribute('class')).toBe('badge');
      // What a screen reader says of it (a plain span's aria-label is not read).
      expect(
        await w.page
          .locator('#step-3 .outcome')
          .getByRole('img', { name: 'exit code not recorded' })
          .count(),
      ).toBe(1);
      await w.page.locator('#step-6 .outcome summary').click();
      await w.page.locator('#step-6 .outcome .added').waitFor();
      expect(await w.page.locator('#step-6 .outcome summary').innerText()).toBe('diff +124 −0');
      await w.page.locator('#step-6 .d2h-file-wrapper').waitFor();
      expect(await w.page.locator('#step-6 .d2h-code-linenumber.d2h-ins').count()).toBe(124);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('asks for the header and the first steps page on open; commands and changes when shown', async () => {
    await withScreenshot(w.page, 'console-session-operations', async () => {
      const asked = () => operations.splice(0).sort();
      // Opened cold on its timeline: the header, the first page, the live steps after it.
      operations.splice(0);
      await open('/sessions/ba5e0000');
      await w.page.locator('#step-6 .outcome').waitFor();
      await operationAsked(w.page, operations, 'ConsoleLiveSteps');
      expect(asked()).toEqual(['ConsoleLiveSteps', 'ConsoleSession', 'ConsoleSteps']);
      // A tab asks for its own list, once.
      await w.page.getByRole('link', { name: 'commands', exact: true }).click();
      await w.page.locator('li.command').first().waitFor();
      expect(asked()).toEqual(['ConsoleCommands']);
      await w.page.getByRole('link', { name: 'changes', exact: true }).click();
      await w.page.locator('.d2h-file-wrapper').first().waitFor();
      expect(asked()).toEqual(['ConsoleChanges']);
      // Back on the timeline the outcomes show what the tabs loaded, asking neither again (the
      // live steps start anew, and a steps page older than the 30 s staleTime is asked again
      // on a slow machine: not what this checks).
      await w.page.getByRole('link', { name: 'timeline', exact: true }).click();
      await w.page.locator('#step-6 .outcome .added').waitFor();
      expect(await w.page.locator('#step-3 .outcome summary').innerText()).toBe('exit ? output');
      expect(await w.page.locator('#step-6 .outcome summary').innerText()).toBe('diff +124 −0');
      expect(asked().filter((o) => o !== 'ConsoleSteps' && o !== 'ConsoleLiveSteps')).toEqual([]);
      // Opened cold on a tab: the header and that tab's list, no steps.
      await open('/sessions/ba5e0000?tab=changes');
      await w.page.locator('.d2h-file-wrapper').first().waitFor();
      expect(asked()).toEqual(['ConsoleChanges', 'ConsoleSession']);
    });
  });

  it("shows a tool call's arguments as text with their line breaks, a cut one decoded as far as it goes", async () => {
    await withScreenshot(w.page, 'console-args', async () => {
      await open('/sessions/ba5e0000/steps/6');
      const args = w.page.locator('#step-6 .args');
      await args.waitFor();
      // Each argument's name, then its value: a string as its text, an object's fields the same.
      const shownArgs = async () => {
        const names = await args.locator(':scope > dl > div > dt').allInnerTexts();
        const values = await args.locator(':scope > dl > div > dd').allInnerTexts();
        return names.map((n, k) => [n, values[k]]);
      };
      const lines = (from: number, to: number) =>
        Array.from(
          { length: to - from },
          (_, i) => `plan line ${String(from + i).padStart(4, '0')}: all good\n`,
        ).join('');
      const head = '# Implementation plan\n\nRésumé: split app.ts.\n\n';
      const others = (code: string) => [
        ['TargetFile', '/x/implementation_plan.md'],
        ['CodeContent', code],
        ['Overwrite', 'false'],
        ['ArtifactMetadata', 'ArtifactType\nimplementation_plan\nSummary\nPlan'],
        ['toolAction', 'Writing plan'],
        ['toolSummary', 'implementation_plan.md'],
      ];
      // The compact transcript cut CodeContent's JSON text: its head decoded, the marker kept.
      expect(await shownArgs()).toEqual(
        others(`${head}${lines(0, 76)}plan line 0076: all\n<truncated 1126 bytes>`),
      );
      await w.page.locator('#step-6').getByRole('button', { name: 'full tool_calls' }).click();
      await w.page
        .locator('#step-6 header button', { hasText: 'full' })
        .waitFor({ state: 'detached' });
      expect(await shownArgs()).toEqual(others(`${head}${lines(0, 120)}`));
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('says so when a permalink names a step the session does not have, even past 32 bits', async () => {
    await open('/sessions/ba5e/steps/999');
    await w.page.locator('#step-0').waitFor();
    expect(await w.page.getByTestId('no-step').textContent()).toBe(
      'This session has no step 999: its first steps are shown.',
    );
    expect(await w.page.locator('article.marked').count()).toBe(0);
    await open('/sessions/ba5e/steps/99999999999999999999999');
    await w.page.locator('#step-0').waitFor();
    expect(await w.page.getByTestId('no-step').textContent()).toMatch(
      /^This session has no step [\d.e+]+: its first steps are shown\.$/,
    );
    expect(await w.page.locator('.error-note').count()).toBe(0);
  });

  it('opens a step permalink cold, marked and in view; j, ] and [ and ? by keyboard', async () => {
    await withScreenshot(w.page, 'console-permalink', async () => {
      await open('/sessions/ba5e/steps/12');
      const step = w.page.locator('#step-12');
      await step.waitFor();
      expect(await step.getAttribute('class')).toContain('marked');
      expect(await step.isVisible()).toBe(true);
      expect(await w.page.locator('article.marked').count()).toBe(1);
      await w.page.locator('body').click({ position: { x: 5, y: 5 } });
      await w.page.keyboard.press('j');
      // Polled from here: a waitForFunction predicate polled in the page is eval, which the CSP
      // refuses when the first check is false (a slow machine).
      await w.page.locator('#step-13:focus').waitFor({ timeout: 30_000 });
      // ] and [: the sessions below and above in the table (newest first).
      // The route's loader keeps the page shown until the next session's first answers come:
      // wait for its header (its full id), not only for a `#step-0` (the previous one's).
      const shows = (id: string) =>
        w.page.locator('.session-head .facts dd.mono', { hasText: id }).waitFor();
      await w.page.keyboard.press(']');
      await w.page.waitForURL(`${world.origin}/sessions/bad00000-0000-4000-8000-000000000006`);
      await shows('bad00000-0000-4000-8000-000000000006');
      await w.page.locator('#step-0').waitFor();
      await w.page.keyboard.press('[');
      await w.page.waitForURL(`${world.origin}/sessions/ba5e0000-0000-4000-8000-000000000001`);
      await shows('ba5e0000-0000-4000-8000-000000000001');
      await w.page.locator('#step-0').waitFor();
      // Keys pressed faster than the view scrolls count from the focused step.
      for (const key of ['j', 'j', 'j', 'k']) await w.page.keyboard.press(key);
      await w.page.locator('#step-2:focus').waitFor();
      await w.page.keyboard.press('?');
      expect(await w.page.locator('.key-help dt').allInnerTexts()).toEqual([
        'j / k',
        '[ / ]',
        '/',
        '?',
      ]);
      await w.page.keyboard.press('Escape');
      await w.page.locator('.key-help').waitFor({ state: 'detached' });
      // A session has no text field: / opens the search page, its field focused.
      await w.page.keyboard.press('/');
      await w.page.waitForURL(`${world.origin}/search`);
      await w.page.locator('main input[type="search"]:focus').waitFor();
    });
  });

  it('lists the commands with their exit codes, and links each to its step', async () => {
    await withScreenshot(w.page, 'console-commands', async () => {
      await open('/sessions/a704176f?tab=commands');
      await w.page.locator('li.command').first().waitFor();
      const rows = await w.page.$$eval('li.command .command-head', (hs) =>
        hs.map((h) => [
          h.querySelector('.badge')!.className,
          h.querySelector('.badge')!.textContent,
          h.querySelector('code')!.textContent,
          h.querySelector('a')!.getAttribute('href'),
        ]),
      );
      expect(rows).toEqual([
        ['badge good', '0', 'git remote -v', '/sessions/a704176f/steps/6'],
        ['badge good', '0', 'git status', '/sessions/a704176f/steps/10'],
        [
          'badge good',
          '0',
          'git check-ignore -v db.sqlite || echo "Not ignored"',
          '/sessions/a704176f/steps/12',
        ],
        ['badge good', '0', 'git ls-files db.sqlite', '/sessions/a704176f/steps/14'],
      ]);
      expect(await w.page.getByRole('img', { name: 'exit code 0', exact: true }).count()).toBe(4);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('shows each file change with its counts and its diff', async () => {
    await withScreenshot(w.page, 'console-changes', async () => {
      await open('/sessions/ba5e0000?tab=changes');
      const head = w.page.locator('.change-head').first();
      await w.page.locator('.d2h-file-wrapper').first().waitFor();
      expect(await head.locator('code').innerText()).toBe('/x/implementation_plan.md');
      expect(await head.locator('.added').innerText()).toBe('+124');
      expect(await head.locator('.removed').innerText()).toBe('−0');
      expect(await w.page.locator('.d2h-code-linenumber.d2h-ins').count()).toBe(124);
      expect(await w.page.locator('.d2h-code-linenumber.d2h-del').count()).toBe(0);
      // A created file (`--- /dev/null`) is ADDED, not diff2html's RENAMED.
      expect(await w.page.locator('.d2h-tag').first().innerText()).toBe('ADDED');
      expect(await axeViolations(w.page)).toEqual([]);
      // The dark theme darkens the diff too (diff2html's own dark colours), and stays readable.
      const background = () =>
        w.page.evaluate(
          `getComputedStyle(document.querySelector('.d2h-file-header')).backgroundColor`,
        );
      expect(await background()).toBe('rgb(247, 247, 247)');
      await w.page.getByRole('button', { name: 'Switch to the dark theme' }).click();
      expect(await background()).toBe('rgb(22, 27, 34)');
      expect(await axeViolations(w.page)).toEqual([]);
      await w.page.getByRole('button', { name: 'Switch to the light theme' }).click();
    });
  });

  it('searches: hits with their terms in <mark>, each opening its step', async () => {
    await withScreenshot(w.page, 'console-search', async () => {
      await open('/');
      await w.page.getByRole('link', { name: 'Search' }).click();
      // The link keeps the focus: '/' moves it to the page's text field.
      await w.page.keyboard.press('/');
      await w.page.keyboard.type('tests pass');
      await w.page.keyboard.press('Enter');
      await w.page.waitForURL(`${world.origin}/search?q=tests+pass`);
      await w.page.getByTestId('hits').filter({ hasText: '2 hits' }).waitFor();
      expect(await w.page.locator('ol.hits mark').allInnerTexts()).toEqual([
        'Tests',
        'pass',
        'tests',
        'pass',
      ]);
      expect(await w.page.locator('ol.hits .snippet').allInnerTexts()).toEqual([
        '# Walkthrough\n\nTests pass.\n',
        'Done. The plan is approved and the tests pass.',
      ]);
      expect(await axeViolations(w.page)).toEqual([]);
      await w.page.getByRole('link', { name: 'step 16' }).click();
      await w.page.waitForURL(
        `${world.origin}/sessions/ba5e0000-0000-4000-8000-000000000001/steps/16?hl=tests+pass`,
      );
      await w.page.locator('#step-16.marked').waitFor();
    });
  });

  it('charts the stats as labelled SVGs; a bar opens the sessions it counts', async () => {
    await withScreenshot(w.page, 'console-dashboard', async () => {
      await open('/dashboard');
      const sessions = w.page.locator('svg[aria-label="Sessions per day"]');
      await sessions.waitFor();
      // The heatmap has its own query: its svg comes when that answers.
      await w.page.locator('svg[aria-label="Steps by hour of the week (UTC)"]').waitFor();
      expect(
        await w.page.$$eval('figure.chart svg[role="group"]', (s) =>
          s.map((e) => e.getAttribute('aria-label')),
        ),
      ).toEqual([
        'Sessions per day',
        'Steps per day',
        'Errors per day',
        'Failed commands per day',
        'Steps by hour of the week (UTC)',
        'Models',
        'Environments',
        'Tools (calls, tool errors)',
      ]);
      // One bar per day from the first to the last of stats.timeline, the empty ones 0
      // (review 3: a continuous axis), each day's value its column's tooltip.
      const counts: Record<string, number> = {
        '2026-05-11': 1,
        '2026-05-23': 1,
        '2026-05-28': 1,
        '2026-06-16': 1,
        '2026-06-25': 2,
      };
      const days = Array.from({ length: 46 }, (_, i) =>
        new Date(Date.UTC(2026, 4, 11 + i)).toISOString().slice(0, 10),
      );
      expect(await sessions.locator('g.column > title').allTextContents()).toEqual(
        days.map((d) => `${d}: ${counts[d] ?? 0}`),
      );
      // Only a day with a session is a link (review 6: an empty one filtered to nothing).
      expect(
        await sessions
          .locator('a')
          .evaluateAll((as) => as.map((a) => a.getAttribute('aria-label'))),
      ).toEqual(days.filter((d) => counts[d]).map((d) => `${d} ${counts[d]}`));
      // 46 bars: a date about every 80 px of the chart (drawn at its own width since review 5,
      // its 12 px text not scaled down: 7 in its ~560 px, every 7th day), not 05-18, which the
      // first, starting at the chart's edge, would overlap; a count above each bar that is not
      // empty (one digit fits its bar).
      expect(await sessions.locator('text').allTextContents()).toEqual([
        '1',
        '2026-05-11',
        '1',
        '2026-05-25',
        '1',
        '2026-06-01',
        '2026-06-08',
        '2026-06-15',
        '1',
        '2026-06-22',
        '2',
      ]);
      expect(
        await w.page
          .locator('svg[aria-label="Models"] a')
          .evaluateAll((as) => as.map((a) => a.getAttribute('aria-label'))),
      ).toEqual(['Gemini 3.5 Flash (High) 5', 'Claude Opus 4.5 (Thinking) 1']);
      expect(await axeViolations(w.page)).toEqual([]);
      await sessions.locator('a').last().click();
      await w.page.waitForURL(`${world.origin}/?from=2026-06-25&to=2026-06-25`);
      expect((await sessionRows(w.page)).map((r) => r[0])).toEqual(['9e779ff1', 'a704176f']);
      await open('/dashboard');
      await w.page.locator('svg[aria-label="Models"] a').nth(1).click();
      await w.page.waitForURL(`${world.origin}/?model=Claude+Opus+4.5+%28Thinking%29`);
      await w.page
        .getByTestId('total')
        .filter({ hasText: /^1 session$/ })
        .waitFor();
      expect((await sessionRows(w.page)).map((r) => r[0])).toEqual(['ba5e0000']);
    });
  });

  it('shows an unknown path under the routes as not found, with the page itself a 200', async () => {
    const res = await w.page.goto(`${world.origin}/sessions/ba5e/steps/x`);
    expect(res?.status()).toBe(200);
    expect(await w.page.locator('h1').innerText()).toBe('Not found');
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { describeInBrowser, watchedPage, withScreenshot, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import {
  axeViolations,
  expectNothingAmiss,
  sessionRows,
  startConsole,
  type ConsoleWorld,
} from './harness';

/**
 * The third outside review's findings, as the reviewer met them (REDACT=on): a file named with
 * a secret, the permalink hold against j/k and links, live header counts, a 390 px screen, the
 * skip link, the heatmap's names and exact counts, filter notices, continuous days, `[`/`]`
 * from a cold tab, the environments as a multi-select and the artifacts' headings.
 */
const LONG = 'c3000000-0000-4000-8000-000000000001';
const FILES = 'c3000000-0000-4000-8000-000000000002';
const LIVE = 'c3000000-0000-4000-8000-000000000003';
/** A Wednesday, 10:00 UTC: LONG's 1,201 steps all fall in the heatmap's wed-10 cell. */
const WED = '2026-07-01T10:00:00Z';
/** A Saturday: no session on the two days between. */
const SAT = '2026-07-04T09:00:00Z';
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const MASKED = 'scratch/token-[REDACTED:github-token].txt';

/** A run_command call (odd steps) and its output (even steps), in turn: rows of two heights. */
function pairs(count: number, base: string) {
  return Array.from({ length: count }, (_, j) => {
    const i = j + 1;
    return i % 2 === 1
      ? planner(i, at(base, i), {
          content: `step ${i} thinking`,
          tool_calls: [{ name: 'run_command', args: { CommandLine: `echo CMD${i}`, Cwd: '/srv' } }],
        })
      : {
          step_index: i,
          source: 'MODEL',
          type: 'RUN_COMMAND',
          status: 'DONE',
          created_at: at(base, i),
          content: `Created At: x\n\nThe command completed successfully.\nOutput:\nOUT${i}\n`,
        };
  });
}

describeInBrowser('the console after its third outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review3-');
    const ide = path.join(home, 'antigravity-ide/brain');
    writeSession(ide, LONG, [
      userInput(0, WED, { request: 'a long session', localTime: WED }),
      ...pairs(1200, WED),
    ]);
    writeSession(
      ide,
      FILES,
      [
        userInput(0, SAT, {
          request: 'files and artifacts, password=hunter2hunter2',
          localTime: SAT,
        }),
        planner(1, at(SAT, 1), { content: 'Done.' }),
      ],
      {
        files: {
          [`scratch/token-${GHP}.txt`]: `token ${GHP}\n`,
          'walkthrough.md': '# Walkthrough\n\n## What changed\n\nThe parser.\n',
        },
      },
    );
    writeSession(path.join(home, 'antigravity-acp/brain'), LIVE, [
      userInput(0, at(SAT, 60), { request: 'a live run', localTime: at(SAT, 60) }),
      planner(1, at(SAT, 61), { content: 'Starting.' }),
    ]);
    world = await startConsole(home);
    await world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));
  const ids = async () => (await sessionRows(w.page)).map((r) => r[0]);

  it('downloads a file whose name holds a secret by its masked link, the name masked (1)', async () => {
    await withScreenshot(w.page, 'review3-files', async () => {
      await w.page.goto(`${world.origin}/sessions/${FILES}?tab=artifacts`);
      const files = w.page.locator('table.files');
      await files.waitFor();
      expect(await files.locator('tbody td:first-child a').allInnerTexts()).toEqual([MASKED]);
      const link = files.getByRole('link', { name: MASKED });
      expect(await link.getAttribute('href')).toBe(
        `/api/sessions/${FILES}/files/scratch/token-%5BREDACTED%3Agithub-token%5D.txt`,
      );
      const [download] = await Promise.all([w.page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('token-[REDACTED_github-token].txt');
      expect(fs.readFileSync(await download.path(), 'utf8')).toBe(
        'token [REDACTED:github-token]\n',
      );
      expect(await w.page.locator('[role="alert"]').count()).toBe(0);
      expect(await w.page.content()).not.toContain(GHP);
    });
  });

  /** The index of the first step whose row is in the timeline's view (its top at or below). */
  const topStep = () =>
    w.page.locator('.timeline').evaluate((t) => {
      const box = t.getBoundingClientRect();
      const rows = [...t.querySelectorAll('article.step')];
      const first = rows.find((r) => r.getBoundingClientRect().bottom > box.top + 2);
      return first ? Number(first.id.replace('step-', '')) : -1;
    });
  /** Waits until the timeline has no page on its way, twice 300 ms apart (rows re-measured). */
  const settled = async () => {
    for (let calm = 0; calm < 2;) {
      await w.page.locator('.timeline[aria-busy="false"]').waitFor();
      await w.page.waitForTimeout(300);
      calm = (await w.page.locator('.timeline[aria-busy="false"]').count()) ? calm + 1 : 0;
    }
  };

  it('lets j/k, a link to another step and a scroll by the app end the permalink hold (3)', async () => {
    await withScreenshot(w.page, 'review3-hold', async () => {
      await w.page.goto(`${world.origin}/sessions/${LONG}/steps/601`);
      await w.page.locator('#step-601').waitFor();
      await settled();
      expect(await topStep()).toBe(601);
      // The permalink is the timeline: its tab is the current one.
      const current = w.page.locator('nav.tabs a[aria-current="page"]');
      expect(await current.allTextContents()).toEqual(['timeline']);
      for (const key of ['j', 'j', 'j']) await w.page.keyboard.press(key);
      await settled();
      expect(await topStep()).toBe(604);
      await w.page.keyboard.press('k');
      await settled();
      expect(await topStep()).toBe(603);
      // Step 603's call is answered by 604: the link is a navigation, the hold moves with it.
      await w.page.locator('#step-603').getByRole('link', { name: 'answered by #604' }).click();
      await w.page.waitForURL(`${world.origin}/sessions/${LONG}/steps/604`);
      await settled();
      expect(await topStep()).toBe(604);
      // The app scrolls the timeline elsewhere (no key, no pointer): the hold lets go.
      await w.page.locator('.timeline').evaluate((t) => t.scrollTo({ top: 0 }));
      await w.page.locator('#step-0').waitFor();
      await settled();
      expect(await topStep()).toBe(0);
    });
  });

  it('has no horizontal page scroll at 390 px, on any view (7)', async () => {
    const narrow = await world.browser.context.newPage();
    try {
      await narrow.setViewportSize({ width: 390, height: 844 });
      const wide: string[] = [];
      for (const [route, ready] of [
        ['/', 'table.sessions tbody tr[data-index]'],
        [`/sessions/${LONG}`, '#step-1'],
        [`/sessions/${LONG}/steps/5`, '#step-5'],
        [`/sessions/${LONG}?tab=commands`, '.command'],
        [`/sessions/${FILES}?tab=artifacts`, 'table.files'],
        [`/sessions/${LONG}?tab=problems`, 'main section'],
        ['/search?q=thinking', '[data-testid="hits"]'],
        ['/secrets', '.exposure, table.findings'],
        ['/dashboard', '.heatmap svg[role="group"]'],
        ['/nope', 'main h1'],
      ]) {
        await narrow.goto(`${world.origin}${route}`);
        await narrow.locator(ready).first().waitFor();
        if (route === '/nope') {
          await narrow.getByRole('button', { name: 'API' }).click();
          await narrow.locator('table.roots').waitFor();
        }
        const [scroll, client] = await narrow.evaluate<number[]>(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        );
        // What sticks out, to find it: the outermost elements past the right edge.
        const out = await narrow.evaluate<string[]>(`[...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > ${client} + 1 &&
            !(e.parentElement && e.parentElement.getBoundingClientRect().right > ${client} + 1))
          .filter((e) => !e.closest('.table-scroll, .timeline, .scroll-x'))
          .slice(0, 4).map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))`);
        if (scroll > client) wide.push(`${route}: ${scroll} > ${client} ${out.join(' ')}`);
      }
      expect(wide).toEqual([]);
    } finally {
      await narrow.close();
    }
  });

  it('has "Skip to content" as its first focusable element, which moves the focus to the view (6)', async () => {
    for (const route of ['/', `/sessions/${FILES}`, '/dashboard']) {
      await w.page.goto(`${world.origin}${route}`);
      await w.page.locator('main h1').first().waitFor();
      const first = await w.page.evaluate<string>(
        `[...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
          .filter((e) => e.tabIndex >= 0 && !e.disabled)[0].outerHTML`,
      );
      expect([route, first]).toEqual([
        route,
        '<a class="skip-link" href="#main">Skip to content</a>',
      ]);
      await w.page.keyboard.press('Tab');
      expect(await w.page.evaluate<string>('document.activeElement.textContent')).toBe(
        'Skip to content',
      );
      expect(await w.page.locator('.skip-link').boundingBox()).toMatchObject({ y: 6 });
      await w.page.keyboard.press('Enter');
      expect(await w.page.evaluate<string>('document.activeElement.id')).toBe('main');
      expect(new URL(w.page.url()).hash).toBe('');
      await w.page.keyboard.press('Tab');
      // The view's own first control comes next, not the header's links.
      expect(
        await w.page.evaluate<boolean>(
          "document.getElementById('main').contains(document.activeElement)",
        ),
      ).toBe(true);
      // The dashboard's own check is item 8's.
      if (route !== '/dashboard') expect(await axeViolations(w.page)).toEqual([]);
    }
  });

  it('writes heatmap counts exact, each cell named with its visible count (4, 8)', async () => {
    await withScreenshot(w.page, 'review3-heatmap', async () => {
      await w.page.goto(`${world.origin}/dashboard`);
      const cells = w.page.locator('.heatmap a');
      await cells.first().waitFor();
      const shown = await cells.evaluateAll((as) =>
        as.map((a) => [a.getAttribute('aria-label'), a.textContent]),
      );
      expect(shown).toEqual([
        ['Wed 10:00 1201', '1201'],
        ['Sat 09:00 4', '4'],
      ]);
      const busy = w.page.locator('.heatmap g.hour', { has: w.page.locator('text=1201') });
      const [box, rect] = await Promise.all([
        busy.locator('.cell-count').boundingBox(),
        busy.locator('rect').boundingBox(),
      ]);
      expect(box!.x).toBeGreaterThanOrEqual(rect!.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(rect!.x + rect!.width);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('says a step number past 2^53 as written, not rounded (4)', async () => {
    for (const [written, said] of [
      ['99999999999999999999', '99999999999999999999'],
      ['9007199254740993', '9007199254740993'],
      ['0009007199254740993', '9007199254740993'],
    ]) {
      await w.page.goto(`${world.origin}/sessions/${LONG}/steps/${written}`);
      expect(await w.page.getByTestId('no-step').innerText()).toBe(
        `This session has no step ${said}: its first steps are shown.`,
      );
      await w.page.locator('#step-0').waitFor();
    }
  });

  it('names only the bad part of hour= and says a from after its to (5)', async () => {
    await w.page.goto(`${world.origin}/?hour=mon-09,xyz`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'In hour, xyz names no hour of the week (accepted: mon-00 to sun-23 in UTC, or 0 to 167, comma-separated); it is left out, mon-09 is kept.',
    );
    await w.page
      .getByTestId('total')
      .filter({ hasText: /^0 sessions$/ })
      .waitFor();
    await w.page.goto(`${world.origin}/?hour=wed-10,xyz`);
    expect(await ids()).toEqual(['c3000000']);
    await w.page.goto(`${world.origin}/?from=2026-07-04&to=2026-07-01`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'from=2026-07-04 is not before to=2026-07-01: no session can be created between them (swap them for the range you meant).',
    );
    await w.page
      .getByTestId('total')
      .filter({ hasText: /^0 sessions$/ })
      .waitFor();
    await w.page.goto(`${world.origin}/dashboard?from=2026-07-04&to=2026-07-01`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'from=2026-07-04 is not before to=2026-07-01: no session can be created between them (swap them for the range you meant).',
    );
  });

  it('shows every day on the activity axis, empty ones as 0 (9)', async () => {
    await w.page.goto(`${world.origin}/dashboard`);
    const chart = w.page.locator('svg[aria-label="Sessions per day"]');
    await chart.locator('a').first().waitFor();
    // Every day a column with its value as tooltip; an empty day is no link (review 6: it
    // filtered to nothing and was a Tab stop).
    expect(await chart.locator('g.column > title').allTextContents()).toEqual([
      '2026-07-01: 1',
      '2026-07-02: 0',
      '2026-07-03: 0',
      '2026-07-04: 2',
    ]);
    expect(
      await chart.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label'))),
    ).toEqual(['2026-07-01 1', '2026-07-04 2']);
    expect(await chart.locator('text.axis').allTextContents()).toEqual([
      '1',
      '2026-07-01',
      '0',
      '2026-07-02',
      '0',
      '2026-07-03',
      '2',
      '2026-07-04',
    ]);
    expect(await chart.locator('a').nth(1).getAttribute('href')).toBe(
      '/?from=2026-07-04&to=2026-07-04',
    );
    await w.page.goto(`${world.origin}/dashboard?bucket=week`);
    const weeks = w.page.locator('svg[aria-label="Sessions per week"] a');
    await weeks.first().waitFor();
    expect(await weeks.evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')))).toEqual([
      '2026-06-29 3',
    ]);
  });

  it('moves with [ and ] from a cold tab through every session and says so (10)', async () => {
    const cold = await world.browser.context.newPage();
    try {
      const shownId = () => /\/sessions\/([^/?]+)/.exec(new URL(cold.url()).pathname)?.[1];
      const press = async (key: string, to: string) => {
        await cold.locator('body').click({ position: { x: 5, y: 5 } });
        await cold.keyboard.press(key);
        await cold.waitForURL(`${world.origin}/sessions/${to}`);
        await cold.locator('.session-head .facts dd.mono', { hasText: to }).waitFor();
      };
      await cold.goto(`${world.origin}/sessions/${FILES}`);
      await cold.locator('#step-0').waitFor();
      expect(await cold.getByTestId('neighbour-note').count()).toBe(0);
      await press(']', LONG);
      const note =
        'This tab has not shown the sessions table, so [ and ] move through every session, newest first; once the sessions table is opened here, they follow its filters.';
      expect(await cold.getByTestId('neighbour-note').innerText()).toBe(note);
      await press('[', FILES);
      await press('[', LIVE);
      expect(shownId()).toBe(LIVE);
      expect(await cold.getByTestId('neighbour-note').innerText()).toBe(note);
      // Once the table is shown (filtered to the IDE), the keys follow it, without the note.
      await cold.goto(`${world.origin}/?env=ide`);
      await cold.locator('table.sessions tbody tr[data-index]').first().waitFor();
      await cold.goto(`${world.origin}/sessions/${LONG}`);
      await cold.locator('#step-0').waitFor();
      await press('[', FILES);
      expect(await cold.getByTestId('neighbour-note').count()).toBe(0);
      await cold.locator('body').click({ position: { x: 5, y: 5 } });
      await cold.keyboard.press('[');
      // LIVE is no IDE session: FILES is the table's first row, [ stays.
      await cold.waitForTimeout(1000);
      expect(shownId()).toBe(FILES);
    } finally {
      await cold.close();
    }
  });

  it("heads an artifact with its name, larger than the artifact's own headings (12)", async () => {
    await w.page.goto(`${world.origin}/sessions/${FILES}?tab=artifacts`);
    const art = w.page.locator('section.artifact');
    await art.locator('.markdown').waitFor();
    // A string: the test's TypeScript has no DOM types.
    const headings = await w.page.evaluate<string[][]>(
      `[...document.querySelectorAll('main h1, main h2, main h3, main h4')].map((h) => {
        const code = h.querySelector('code');
        return [h.tagName.toLowerCase(), h.textContent, getComputedStyle(h).fontSize,
          code ? getComputedStyle(code).fontSize : ''];
      })`,
    );
    expect(headings).toEqual([
      ['h1', 'c3000000 files and artifacts, password=[REDACTED:password]', '20px', ''],
      ['h2', 'walkthrough.md', '17px', '17px'],
      ['h3', 'Walkthrough', '15px', ''],
      ['h4', 'What changed', '14px', ''],
      ['h2', 'Other files', '17px', ''],
    ]);
    expect(await art.locator('.artifact-facts').innerText()).toMatch(
      /^walkthrough · 44 bytes · 2026-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    expect(await axeViolations(w.page)).toEqual([]);
  });

  // Last: it grows a session the other tests count.
  /** The session header's facts, by name. */
  const facts = () =>
    w.page
      .locator('.session-head .facts')
      .evaluate((dl) =>
        Object.fromEntries(
          [...dl.querySelectorAll('div')].map((d) => [
            d.querySelector('dt')?.textContent,
            d.querySelector('dd')?.textContent,
          ]),
        ),
      );

  it("refreshes the header's counts from the live steps of a followed session (2)", async () => {
    await withScreenshot(w.page, 'review3-live', async () => {
      await w.page.goto(`${world.origin}/sessions/${LIVE}`);
      await w.page.locator('#step-1').waitFor();
      const pick = async () => {
        const f = await facts();
        return [f.steps, f['tool calls'], f.errors, f['last activity']];
      };
      expect(await pick()).toEqual(['2', '0', '0', '2026-07-04 09:01:01']);
      await w.page.getByLabel('follow').check();
      const records = [
        planner(2, at(SAT, 62), {
          tool_calls: [{ name: 'run_command', args: { CommandLine: 'make', Cwd: '/w' } }],
        }),
        toolResult(3, at(SAT, 63), 'Output:\nok', { type: 'RUN_COMMAND' }),
        planner(4, at(SAT, 64), { content: 'It broke.', status: 'ERROR', error: 'boom' }),
      ];
      fs.appendFileSync(
        path.join(home, 'antigravity-acp/brain', LIVE, '.system_generated/logs/transcript.jsonl'),
        records.map((r) => `${JSON.stringify(r)}\n`).join(''),
      );
      await w.page.locator('#step-4').waitFor({ timeout: 20_000 });
      for (const end = Date.now() + 20_000; (await facts()).steps !== '5';) {
        if (Date.now() > end) break;
        await w.page.waitForTimeout(100);
      }
      expect(await pick()).toEqual(['5', '1', '1', '2026-07-04 09:01:04']);
      expect(await w.page.getByTestId('loaded').innerText()).toBe('5 steps');
    });
  });
});

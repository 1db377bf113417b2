import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { describeInBrowser, watchedPage, withScreenshot, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { COMPACT, FULL, writeSession } from '../index/index-home';
import { axeViolations, expectNothingAmiss, startConsole, type ConsoleWorld } from './harness';

/**
 * The lows of issue #20's fourth outside review (L1, L3-L14), as the reviewer met them: with
 * API keys on (the tab holds one), REDACT=on.
 */
const LONG = 'c4000000-0000-4000-8000-000000000001';
const ODD = 'c4000000-0000-4000-8000-000000000002';
const KEY = 'bql_review4-key-0123456789abcdefghijklmnopqrstuvwxyz012345';
/** A Wednesday; ODD is on the Saturday after: two empty days between on the activity axis. */
const WED = '2026-07-01T10:00:00Z';
const SAT = '2026-07-04T09:00:00Z';
const MODEL = `model-${'a'.repeat(194)}`;
const ESC = '\u001b';
/** Red, plain, an OSC 8 hyperlink (ST-terminated), a window title (BEL-terminated). */
const COLOURED =
  `${ESC}[31mRED${ESC}[0m plain ${ESC}]8;;https://example.test/p${ESC}\\link text` +
  `${ESC}]8;;${ESC}\\ ${ESC}]0;a title\u0007end`;
const WALKTHROUGH = [
  '# One',
  '## Two',
  '### Three',
  '#### Four',
  '##### Five',
  '###### Six',
  '# Again',
  '#### Skipped',
  '',
  '[js](javascript:alert(1)) and [ok](https://example.test/) and [rel](notes.md)',
  '',
].join('\n\n');

/** A run_command call (odd steps) and its output (even steps), in turn. */
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

describeInBrowser('the console after the lows of its fourth outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review4-');
    const ide = path.join(home, 'antigravity-ide/brain');
    writeSession(ide, LONG, [
      userInput(0, WED, { request: 'a long session', localTime: WED }),
      ...pairs(449, WED),
    ]);
    const odd = writeSession(
      ide,
      ODD,
      [
        userInput(0, SAT, {
          request: 'odd steps',
          localTime: SAT,
          model: { from: 'm0', to: MODEL },
        }),
        planner(1, at(SAT, 1), {
          tool_calls: [{ name: 'run_command', args: { CommandLine: 'ls --color', Cwd: '/w' } }],
        }),
        {
          step_index: 2,
          source: 'MODEL',
          type: 'RUN_COMMAND',
          status: 'DONE',
          created_at: at(SAT, 2),
          content: `Created At: x\n\nThe command completed successfully.\nOutput:\n${COLOURED}\n`,
        },
        toolResult(3, at(SAT, 3), COLOURED),
        planner(-5, at(SAT, 4), { content: 'a step numbered -5' }),
      ],
      { files: { 'walkthrough.md': WALKTHROUGH, 'scratch/data.txt': 'some data\n' } },
    );
    // Two lines whose step_index JSON.parse rounds (L1), in both views.
    for (const view of [COMPACT, FULL]) {
      fs.appendFileSync(
        path.join(odd, view),
        '{"step_index":9007199254740993,"type":"X"}\n{"step_index":12345678901234567890,"type":"X"}\n',
      );
    }
    const keys = path.join(home, '..', `${path.basename(home)}-keys.json`);
    fs.writeFileSync(keys, JSON.stringify([{ name: 'r4', sha256: hashKey(KEY).toString('hex') }]));
    world = await startConsole(home, { API_KEYS_FILE: keys });
    await world.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    // The tab holds the key, as after the key dialog.
    await world.browser.context.addInitScript({
      content: `sessionStorage.setItem('brainql.key', ${JSON.stringify(KEY)});`,
    });
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  it('names a step_index past 2^53 in a problem with the digits the line holds (L1)', async () => {
    await w.page.goto(`${world.origin}/sessions/${ODD}?tab=problems`);
    await w.page.locator('main table').first().waitFor();
    const text = await w.page.locator('main').innerText();
    expect(
      text.match(/the step_index \S+ is outside the 32-bit integer range/g)?.slice(0, 2),
    ).toEqual([
      'the step_index 9007199254740993 is outside the 32-bit integer range',
      'the step_index 12345678901234567890 is outside the 32-bit integer range',
    ]);
    expect(text).not.toContain('9007199254740992');
    expect(text).not.toContain('12345678901234567000');
  });

  it('opens the permalink of a negative step index, the step marked (L3)', async () => {
    await w.page.goto(`${world.origin}/sessions/${ODD}`);
    const link = w.page.locator('#step--5 header a', { hasText: '#-5' });
    expect(await link.getAttribute('href')).toBe(`/sessions/${ODD}/steps/-5`);
    await link.click();
    await w.page.waitForURL(`${world.origin}/sessions/${ODD}/steps/-5`);
    await w.page.locator('#step--5.marked').waitFor();
    expect(await w.page.getByTestId('no-step').count()).toBe(0);
    // Opened cold, and written with leading zeros.
    for (const written of ['-5', '-005']) {
      await w.page.goto(`${world.origin}/sessions/${ODD}/steps/${written}`);
      await w.page.locator('#step--5.marked').waitFor();
      expect(await w.page.locator('main h1').first().innerText()).toBe('c4000000 odd steps');
    }
    await w.page.goto(`${world.origin}/sessions/${ODD}/steps/-7`);
    expect(await w.page.getByTestId('no-step').innerText()).toBe(
      'This session has no step -7: its first steps are shown.',
    );
    await w.page.goto(`${world.origin}/sessions/${ODD}/steps/-99999999999999999999`);
    expect(await w.page.getByTestId('no-step').innerText()).toBe(
      'This session has no step -99999999999999999999: its first steps are shown.',
    );
  });

  it('shows the timeline and a notice, as text, for a tab= that names no tab (L4)', async () => {
    await withScreenshot(w.page, 'review4-tab', async () => {
      const accepted = 'accepted: timeline, changes, commands, artifacts, secrets, problems';
      for (const [tab, said] of [
        ['Timeline', 'Timeline'],
        ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', '<script>alert(1)</script>'],
      ]) {
        await w.page.goto(`${world.origin}/sessions/${ODD}?tab=${tab}`);
        await w.page.locator('#step-0').waitFor();
        // The URL as written: nothing added to it, the value kept.
        const url = new URL(w.page.url());
        expect([[...url.searchParams.keys()], url.searchParams.get('tab')]).toEqual([
          ['tab'],
          said,
        ]);
        expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
          `tab=${said} names no view of a session (${accepted}); the timeline is shown.`,
        );
        expect(await w.page.locator('nav.tabs a[aria-current="page"]').allTextContents()).toEqual([
          'timeline',
        ]);
        expect(await w.page.locator('main script').count()).toBe(0);
      }
      await w.page.goto(`${world.origin}/sessions/${ODD}?tab=commands`);
      await w.page.locator('.command').first().waitFor();
      expect(await w.page.getByTestId('filter-problems').count()).toBe(0);
    });
  });

  // Review 6 made an empty day no link (it filtered to nothing: 798 of 840 Tab stops): Tab
  // goes from a day to the next non-empty one, whose column is ringed.
  it("skips an empty day's bar and rings the next day's column when it has the focus (L5)", async () => {
    await withScreenshot(w.page, 'review4-chart-focus', async () => {
      await w.page.goto(`${world.origin}/dashboard`);
      const chart = w.page.locator('svg[aria-label="Sessions per day"]');
      await chart.locator('a[aria-label="2026-07-04 1"]').waitFor();
      expect(await chart.locator('a[aria-label="2026-07-02 0"]').count()).toBe(0);
      await chart.locator('a[aria-label="2026-07-01 1"]').focus();
      await w.page.keyboard.press('Tab');
      expect(await w.page.evaluate<string | null>('document.activeElement.ariaLabel')).toBe(
        '2026-07-04 1',
      );
      // A string: the test's TypeScript has no DOM types.
      const ring = `(() => {
        const r = document.querySelector('svg[aria-label="Sessions per day"] a[aria-label="2026-07-04 1"] rect.hit');
        const s = getComputedStyle(r);
        const box = r.getBoundingClientRect();
        return [s.stroke !== 'none', s.strokeWidth, box.height >= 44, box.width >= 24];
      })()`;
      expect(await w.page.evaluate<unknown[]>(ring)).toEqual([true, '2px', true, true]);
      // Without the focus, no ring.
      await w.page.keyboard.press('Tab');
      expect(await w.page.evaluate<unknown[]>(ring)).toEqual([false, '1px', true, true]);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('keeps a 200-character model name within the page at 1280 and 390 px (L6)', async () => {
    const page = await world.browser.context.newPage();
    try {
      const widths: string[] = [];
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        for (const [route, ready] of [
          [`/sessions/${ODD}`, '#step-0'],
          ['/', 'table.sessions tbody tr[data-index]'],
          ['/dashboard', '.heatmap svg[role="group"]'],
        ]) {
          await page.goto(`${world.origin}${route}`);
          await page.locator(ready).first().waitFor();
          const [scroll, client] = await page.evaluate<number[]>(
            '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
          );
          widths.push(`${width} ${route} ${scroll} ${client}`);
        }
      }
      expect(widths).toEqual([
        `1280 /sessions/${ODD} 1280 1280`,
        '1280 / 1280 1280',
        '1280 /dashboard 1280 1280',
        `390 /sessions/${ODD} 390 390`,
        '390 / 390 390',
        '390 /dashboard 390 390',
      ]);
      await page.goto(`${world.origin}/sessions/${ODD}`);
      const model = page.locator('.session-head .facts div', { hasText: 'model' }).locator('dd');
      expect(await model.innerText()).toBe(MODEL);
    } finally {
      await page.close();
    }
  });

  it('colours a generic tool output as command output, OSC sequences out, their link text kept (L7)', async () => {
    const expected = 'RED plain link text end';
    await w.page.goto(`${world.origin}/sessions/${ODD}`);
    const generic = w.page.locator('#step-3 pre.raw');
    await generic.waitFor();
    const header = `Created At: ${at(SAT, 3)}\nCompleted At: ${at(SAT, 3)}\n`;
    expect(await generic.innerText()).toBe(`${header}${expected}`);
    expect(await generic.locator('span.ansi-red-fg').allInnerTexts()).toEqual(['RED']);
    expect(await w.page.locator('#step-3 a').allInnerTexts()).toEqual(['#3']);
    await w.page.goto(`${world.origin}/sessions/${ODD}?tab=commands`);
    const output = w.page.locator('.command pre.ansi');
    await output.waitFor();
    expect(await output.innerText()).toBe(expected);
    expect(await output.locator('span.ansi-red-fg').allInnerTexts()).toEqual(['RED']);
    expect(await w.page.locator('.command a').allInnerTexts()).toEqual(['step 1']);
    expect(await w.page.locator('main').innerText()).not.toMatch(/\]8;;|\]0;|\uFFFD/);
  });

  it('keeps the heading levels of an artifact in order, none skipped (L8)', async () => {
    await withScreenshot(w.page, 'review4-artifact', async () => {
      await w.page.goto(`${world.origin}/sessions/${ODD}?tab=artifacts`);
      const md = w.page.locator('section.artifact .markdown');
      await md.waitFor();
      const headings = await w.page.evaluate<string[]>(
        `[...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')]
          .map((h) => h.tagName.toLowerCase() + ' ' + h.textContent)`,
      );
      expect(headings).toEqual([
        'h1 c4000000 odd steps',
        'h2 walkthrough.md',
        'h3 One',
        'h4 Two',
        'h5 Three',
        'h6 Four',
        'h6 Five',
        'h6 Six',
        'h3 Again',
        'h4 Skipped',
        'h2 Other files',
      ]);
      await w.page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
      expect(
        await w.page.evaluate<string[]>(
          `axe.run({ runOnly: ['heading-order'] }).then((r) => r.violations.map((v) => v.id))`,
        ),
      ).toEqual([]);
    });
  });

  it('shows a link whose target is dropped as text with the target said removed (L9)', async () => {
    await withScreenshot(w.page, 'review4-links', async () => {
      await w.page.goto(`${world.origin}/sessions/${ODD}?tab=artifacts`);
      const md = w.page.locator('section.artifact .markdown');
      await md.waitFor();
      expect(await md.locator('p').last().innerText()).toBe(
        'js (javascript:alert(1) link removed) and ok and rel (notes.md link removed)',
      );
      expect(
        await md.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).toEqual(['https://example.test/']);
      expect(await md.locator('.link-removed').count()).toBe(2);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });

  it('downloads a file with the tab key by a button, no address that answers 401 (L11)', async () => {
    await withScreenshot(w.page, 'review4-files', async () => {
      await w.page.goto(`${world.origin}/sessions/${ODD}?tab=artifacts`);
      await w.page.locator('table.files').waitFor();
      // The file route without the key: 401, what a link opened in a new tab showed.
      expect(
        (await fetch(`${world.origin}/api/sessions/${ODD}/files/scratch/data.txt`)).status,
      ).toBe(401);
      const files = w.page.locator('table.files');
      expect(await files.locator('a[href^="/api/"]').count()).toBe(0);
      const button = files.getByRole('button', { name: 'scratch/data.txt' });
      expect(await button.getAttribute('title')).toBe(
        "Downloaded with this tab's API key (the file's address alone answers 401)",
      );
      const [download] = await Promise.all([w.page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toBe('data.txt');
      expect(fs.readFileSync(await download.path(), 'utf8')).toBe('some data\n');
      expect(await w.page.locator('[role="alert"]').count()).toBe(0);
    });
  });

  it('says tool errors and failed commands apart on the dashboard (L10)', async () => {
    await w.page.goto(`${world.origin}/dashboard`);
    await w.page.locator('.totals').waitFor();
    expect(await w.page.locator('.totals').innerText()).toBe(
      '2 sessions · 455 steps · 226 tool calls · 0 errors · 226 commands · 0 failed commands',
    );
    const tools = w.page.locator('svg[aria-label="Tools (calls, tool errors)"] a');
    expect(await tools.evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')))).toEqual([
      'run_command 226 (0 tool errors, 0%)',
    ]);
    // A chart of zeros says so instead of standing blank; one with a count does not.
    const says = (title: string) =>
      w.page.locator(`svg[aria-label="${title}"] text`, { hasText: 'none in this range' }).count();
    expect(await says('Failed commands per day')).toBe(1);
    expect(await says('Errors per day')).toBe(1);
    expect(await says('Steps per day')).toBe(0);
  });

  it('moves j/k from the permalinked step, not from the top of the view (L12)', async () => {
    await w.page.goto(`${world.origin}/sessions/${LONG}/steps/449`);
    await w.page.locator('#step-449.marked').waitFor();
    await w.page.locator('.timeline[aria-busy="false"]').waitFor();
    await w.page.waitForTimeout(500);
    const active = () => w.page.evaluate<string>('document.activeElement.id');
    await w.page.keyboard.press('k');
    expect(await active()).toBe('step-448');
    await w.page.keyboard.press('k');
    expect(await active()).toBe('step-447');
    await w.page.keyboard.press('j');
    expect(await active()).toBe('step-448');
  });

  it('writes the environments unescaped in the URL, env=cli,acp, and reads both forms (L13)', async () => {
    await w.page.goto(`${world.origin}/`);
    await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
    for (const env of ['cli', 'acp']) await w.page.getByRole('checkbox', { name: env }).check();
    await w.page.getByRole('button', { name: 'Apply' }).click();
    await w.page.waitForURL(/env=/);
    expect(new URL(w.page.url()).search).toBe('?env=cli,acp');
    for (const search of ['?env=ide,acp', '?env=ide%2Cacp']) {
      await w.page.goto(`${world.origin}/${search}`);
      await w.page
        .getByTestId('total')
        .filter({ hasText: /^2 sessions$/ })
        .waitFor();
      expect(await w.page.getByTestId('filter-problems').count()).toBe(0);
      expect(await w.page.getByRole('checkbox', { name: 'ide' }).isChecked()).toBe(true);
      expect(await w.page.getByRole('checkbox', { name: 'acp' }).isChecked()).toBe(true);
    }
  });

  it('lines up every key and every description of the ? panel (L14)', async () => {
    await withScreenshot(w.page, 'review4-keys', async () => {
      await w.page.goto(`${world.origin}/`);
      await w.page.locator('table.sessions tbody tr[data-index]').first().waitFor();
      await w.page.keyboard.press('?');
      const panel = w.page.locator('.key-help');
      await panel.waitFor();
      const xs = async (sel: string) =>
        (
          await panel.locator(sel).evaluateAll((es) => es.map((e) => e.getBoundingClientRect().x))
        ).map(Math.round);
      const keys = await xs('dt kbd');
      const what = await xs('dd');
      expect(keys).toHaveLength(4);
      expect(new Set(keys).size).toBe(1);
      expect(new Set(what).size).toBe(1);
      expect(what[0]).toBeGreaterThan(keys[0]);
      expect(await axeViolations(w.page)).toEqual([]);
    });
  });
});

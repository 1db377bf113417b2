import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeInBrowser, watchedPage, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { expectNothingAmiss, sessionRows, startConsole, type ConsoleWorld } from './harness';

/**
 * The lows of the console's outside review (issue 20), each as the reviewer met it: repeated
 * and refused filter values in the URL, counts and their plurals, a long model name, a long
 * word, an OSC 8 link and an image in artifact markdown, a masked key's diff counts, heading
 * order on the artifacts tab, and a session without a request.
 */
const WORDY = 'a1110000-0000-4000-8000-000000000001';
const BUSY = 'a2220000-0000-4000-8000-000000000002';
const ACP = 'a3330000-0000-4000-8000-000000000003';
const MODEL = `Model <b>bold</b> ${'very-long-model-name-'.repeat(4)}end`;
const WORD = 'deadbeef'.repeat(60);
const ARTIFACT =
  '# Walkthrough\n\nSee \u001b]8;;http://evil.example/osc\u0007OSCLINK\u001b]8;;\u0007 here.\n\n' +
  '![diagram of the flow](http://evil.example/img.png)\n\n## Details\n\nDone.\n';
const KEY =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq3Rv8Zx9PrivKeyBodyLineOne\n' +
  'QWERTYprivbodyline2\n-----END RSA PRIVATE KEY-----\n';

describeInBrowser('the console after its outside review', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  beforeAll(async () => {
    home = makeTempDir('brainql-console-review-');
    const ide = path.join(home, 'antigravity-ide/brain');
    const t = (s: number) => at('2026-07-02T10:00:00Z', s);
    writeSession(
      ide,
      WORDY,
      [
        userInput(0, t(0), {
          request: 'Wordy work',
          localTime: t(0),
          model: { from: 'None', to: MODEL },
        }),
        planner(1, t(1), { content: `One word: ${WORD}` }),
        planner(2, t(2), {
          tool_calls: [
            {
              name: 'write_to_file',
              args: { TargetFile: '/w/key.txt', CodeContent: `before\n${KEY}after\n` },
            },
          ],
        }),
        toolResult(3, t(3), 'Created file', { type: 'CODE_ACTION' }),
      ],
      { files: { 'walkthrough.md': ARTIFACT } },
    );
    // No request: its records are the model's only. 1,200 steps in one hour of the week.
    writeSession(
      ide,
      BUSY,
      Array.from({ length: 1200 }, (_, i) =>
        planner(i, at('2026-07-01T10:00:00Z', i), { content: `Step ${i}.` }),
      ),
    );
    writeSession(path.join(home, 'antigravity-acp/brain'), ACP, [
      userInput(0, at('2026-07-03T10:00:00Z'), {
        request: 'ACP work',
        localTime: at('2026-07-03T10:00:00Z'),
      }),
    ]);
    world = await startConsole(home);
    w = await watchedPage(world.browser, world.origin);
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => expectNothingAmiss(w));

  const text = (selector: string) => w.page.locator(selector).innerText();

  it('takes a repeated filter parameter as the comma form, and says "1 session"', async () => {
    await w.page.goto(`${world.origin}/?env=ide&env=acp`);
    expect((await sessionRows(w.page)).map((r) => r[0]).sort()).toEqual([
      'a1110000',
      'a2220000',
      'a3330000',
    ]);
    expect(await w.page.getByTestId('total').innerText()).toBe('3 sessions');
    await w.page.goto(`${world.origin}/?env=acp`);
    expect((await sessionRows(w.page)).map((r) => r[0])).toEqual(['a3330000']);
    expect(await w.page.getByTestId('total').innerText()).toBe('1 session');
  });

  it('says which filter values it left out and what is accepted, the table still shown', async () => {
    await w.page.goto(`${world.origin}/?env=zzz`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'env=zzz names no environment (accepted: ide, cli, acp, other, comma-separated); it is left out.',
    );
    expect((await sessionRows(w.page)).length).toBe(3);
    await w.page.goto(`${world.origin}/?hour=xyz_99`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'In hour, xyz_99 names no hour of the week (accepted: mon-00 to sun-23 in UTC, or 0 to 167, comma-separated); it is left out.',
    );
    expect((await sessionRows(w.page)).length).toBe(3);
    expect(await w.page.locator('[role=alert]').count()).toBe(0);
    await w.page.goto(`${world.origin}/dashboard?bucket=century`);
    expect(await w.page.getByTestId('filter-problems').innerText()).toBe(
      'bucket=century is no bucket (accepted: day, week, month); shown by day.',
    );
    expect(await w.page.locator('figcaption').first().innerText()).toBe('Sessions per day');
    expect(await w.page.locator('[role=alert]').count()).toBe(0);
  });

  it('fits heatmap counts, exact, in their cells, keeps a cut model name readable, counts in plurals', async () => {
    await w.page.goto(`${world.origin}/dashboard`);
    const cell = w.page.locator('.heatmap g.hour', { has: w.page.locator('.cell-count') });
    await cell.first().waitFor();
    // Exact (review 3), its digits sized to fit.
    expect(await cell.locator('.cell-count').allTextContents()).toContain('1200');
    const busy = cell.filter({ has: w.page.locator('text=1200') });
    expect(await busy.locator('title').textContent()).toBe('Wed 10:00 1200');
    // The count's text inside its cell's rectangle.
    const [box, rect] = await Promise.all([
      busy.locator('.cell-count').boundingBox(),
      busy.locator('rect').boundingBox(),
    ]);
    expect(box!.x).toBeGreaterThanOrEqual(rect!.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(rect!.x + rect!.width);
    const models = w.page.locator('svg[aria-label="Models"] text.axis');
    const cut = models.filter({ has: w.page.locator('title') });
    expect(await cut.locator('title').textContent()).toBe(MODEL);
    // And what is shown of it starts inside the chart.
    const [label, chart] = await Promise.all([
      cut.boundingBox(),
      w.page.locator('svg[aria-label="Models"]').boundingBox(),
    ]);
    expect(label!.x).toBeGreaterThanOrEqual(chart!.x);
    await w.page.goto(`${world.origin}/dashboard?env=acp`);
    await w.page.locator('.totals').waitFor();
    expect(await text('.totals')).toBe(
      '1 session · 1 step · 0 tool calls · 0 errors · 0 commands · 0 failed commands',
    );
  });

  it('names a session without a request, and wraps a long word inside its step', async () => {
    await w.page.goto(`${world.origin}/sessions/a2220000`);
    await w.page.locator('#step-0').waitFor();
    expect(await text('h1')).toBe('a2220000 (no request)');
    await w.page.goto(`${world.origin}/sessions/a1110000/steps/1`);
    const step = w.page.locator('#step-1');
    await step.waitFor();
    const fits = await step.evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(fits[0]).toBeLessThanOrEqual(fits[1]);
  });

  it('shows artifact markdown with an OSC 8 link as text, an image as its alt text, headings in order', async () => {
    await w.page.goto(`${world.origin}/sessions/a1110000?tab=artifacts`);
    const art = w.page.locator('section.artifact');
    await art.locator('.markdown').waitFor();
    expect(await art.locator('a').count()).toBe(0);
    expect(await art.locator('.osc').allTextContents()).toEqual([
      '\uFFFD]8;;http://evil.example/osc\uFFFD',
      '\uFFFD]8;;\uFFFD',
    ]);
    expect(await art.locator('.md-image').innerText()).toBe(
      '[image: diagram of the flow] http://evil.example/img.png',
    );
    expect(await w.page.locator('img').count()).toBe(0);
    expect(
      await w.page.$$eval('main h1, main h2, main h3, main h4', (hs) =>
        hs.map((h) => h.tagName.toLowerCase()),
      ),
    ).toEqual(['h1', 'h2', 'h3', 'h4', 'h2']);
    await w.page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const order = await w.page.evaluate<string[]>(
      `axe.run({ runOnly: ['heading-order'] }).then((r) => r.violations.map((v) => v.id))`,
    );
    expect(order).toEqual([]);
  });

  it("counts a masked key's change as its diff shows it", async () => {
    await w.page.goto(`${world.origin}/sessions/a1110000?tab=changes`);
    const head = w.page.locator('.change-head');
    await head.waitFor();
    await w.page.locator('.diff .d2h-file-wrapper').waitFor();
    // The 6 lines written show as 3 (the key's 4 masked into one): the count says 3.
    const shownAdded = w.page.locator('.diff tr', { has: w.page.locator('td.d2h-ins') });
    expect(await shownAdded.count()).toBe(3);
    expect(await head.locator('.added').innerText()).toBe('+3');
    expect(await head.locator('.removed').innerText()).toBe('−0');
  });
});

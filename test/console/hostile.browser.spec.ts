import * as fs from 'node:fs';
import { describeInBrowser, watchedPage, withScreenshot, type Watched } from '../browser/browser';
import { makeTempDir } from '../fixtures/fs-util';
import { axeViolations, startConsole, type ConsoleWorld } from './harness';
import { BIDI, buildHostileHome, HOSTILE_FILE, HOSTILE_ID, HTML } from './hostile-home';

/**
 * Every brain text is hostile: on each view of a session made of HTML, handlers, javascript:
 * links, SVG, CSS, ANSI/OSC sequences and bidi overrides, nothing runs or loads (no dialog, no
 * request off the origin, no CSP report), markup shows as text, hidden characters visibly.
 */
describeInBrowser('the console on hostile brain text', () => {
  let home: string;
  let world: ConsoleWorld;
  let w: Watched;
  const dialogs: string[] = [];
  beforeAll(async () => {
    home = makeTempDir('brainql-hostile-');
    buildHostileHome(home);
    world = await startConsole(home, { REDACT: 'off' });
    w = await watchedPage(world.browser, world.origin);
    w.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  afterAll(async () => {
    await world?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** What must hold on every view once it has rendered. */
  async function nothingRan(): Promise<void> {
    // Markup shows as text: the only elements are the console's own.
    const found = await w.page.evaluate(`({
      scripts: [...document.scripts].map((s) => s.getAttribute('src')),
      imgs: document.querySelectorAll('main img, main svg image, main iframe, main style').length,
      handlers: [...document.querySelectorAll('main *')].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith('on'))).length,
      jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      svgs: document.querySelectorAll('main svg').length,
      esc: document.body.innerText.includes('\\u001b'),
      bidi: /[\\u202a-\\u202e\\u2066-\\u2069]/.test(document.body.innerText),
      dataLinks: [...document.querySelectorAll('main .markdown a[href]')].map((a) =>
        [a.getAttribute('href'), a.getAttribute('rel'), a.getAttribute('target')]),
    })`);
    expect(found).toEqual({
      // The console's two: the early script (a session page's first queries) and the bundle.
      scripts: [
        expect.stringMatching(/^\/assets\/early-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/assets\/index-[\w-]{8}\.js$/),
      ],
      imgs: 0,
      handlers: 0,
      jsLinks: 0,
      svgs: 0,
      esc: false,
      bidi: false,
      dataLinks: expect.any(Array),
    });
    for (const link of (found as { dataLinks: string[][] }).dataLinks) {
      expect(link).toEqual([
        expect.stringMatching(/^https?:\/\//),
        'noopener noreferrer',
        '_blank',
      ]);
    }
    expect(dialogs).toEqual([]);
    expect(w.problems).toEqual([]);
    expect(w.elsewhere()).toEqual([]);
    expect(await axeViolations(w.page)).toEqual([]);
  }

  it('shows the model name and request in the table as text', async () => {
    await withScreenshot(w.page, 'hostile-sessions', async () => {
      await w.page.goto(`${world.origin}/`);
      const row = w.page.locator('table.sessions tbody tr[data-index]').first();
      await row.waitFor();
      expect(await row.locator('td').nth(3).innerText()).toBe(
        'Model <script>alert(1)</script><img src="http://evil.example/i.png" onerror="alert(2)"><a href="javascript:alert(3)">js</a><svg onload="alert(4)"><circle r="1"/></svg><style>body{background:url(http://evil.example/s.png)}</style> \uFFFDgnp.exe\uFFFD',
      );
      expect(await row.locator('td').nth(4).innerText()).toMatch(
        /^Run <script>alert\(1\)<\/script><img src=/,
      );
      // The long model name is cut (whole in its title), so every count stays in view.
      expect(await row.locator('td').nth(3).getAttribute('title')).toBe(
        await row.locator('td').nth(3).innerText(),
      );
      const width = w.page.viewportSize()!.width;
      const last = (await row.locator('td').last().boundingBox())!;
      expect([last.x + last.width <= width, width]).toEqual([true, width]);
      await nothingRan();
    });
  });

  it('lists the session on the secrets report, its finding linked to the step', async () => {
    await withScreenshot(w.page, 'hostile-secrets', async () => {
      await w.page.goto(`${world.origin}/secrets`);
      const item = w.page.locator('li.exposure');
      await item.waitFor();
      expect(await w.page.getByTestId('exposures').innerText()).toBe('1 session');
      expect(await item.locator('h2 a').innerText()).toBe('e7110000');
      const finding = item.locator('ul li');
      expect(await finding.allInnerTexts()).toEqual([
        // The request's key once, as the request (not again as the step's content: 128d433).
        'aws-access-key ×1 in user_request step 0',
        'aws-access-key ×1 in content lines that are no record',
        'aws-access-key ×1 in file scratch/<img src=x onerror=alert(6)>\uFFFDgnp.exe\uFFFD.txt',
      ]);
      expect(
        await finding.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).toEqual([
        `/sessions/${HOSTILE_ID}/steps/0`,
        `/sessions/${HOSTILE_ID}?tab=problems`,
        `/api/sessions/${HOSTILE_ID}/files/scratch/${encodeURIComponent(HOSTILE_FILE)}`,
      ]);
      await w.page.getByLabel('Kind').selectOption('aws-access-key');
      await w.page.waitForURL(`${world.origin}/secrets?kind=aws-access-key`);
      await w.page.getByTestId('exposures').filter({ hasText: '1 session' }).waitFor();
      await nothingRan();
    });
  });

  it("shows a problem's line with its escapes and bidi overrides visible, not acting", async () => {
    await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}?tab=problems`);
    const link = w.page.locator('a[href*="&line="]').first();
    await link.click();
    const pre = w.page.getByTestId('problem-line').locator('pre');
    await pre.waitFor();
    const text = (await pre.textContent()) ?? '';
    expect(text).toContain('"content":"\uFFFD[31m\uFFFDgnp.exe\uFFFD export AWS_ACCESS_KEY_ID=');
    expect(['\u001b', '\u202e', '\u202c'].filter((c) => text.includes(c))).toEqual([]);
    await nothingRan();
  });

  it('renders the timeline (markdown sanitised, arguments as text) without running anything', async () => {
    await withScreenshot(w.page, 'hostile-timeline', async () => {
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}`);
      await w.page.locator('#step-1 .markdown').waitFor();
      // A transcript's `#` is an h2: the page's h1 is the session's (axe heading-order).
      expect(await w.page.locator('#step-1 .markdown h2').innerText()).toBe(
        'Plan \uFFFDgnp.exe\uFFFD',
      );
      // Written HTML is text; a markdown link to javascript: is no link, its words and its
      // target shown as text, said removed (#20 L9).
      expect(await w.page.locator('#step-1 .markdown').innerText()).toContain(HTML);
      expect(await w.page.locator('#step-1 .markdown .link-removed').allInnerTexts()).toEqual([
        'click (javascript:alert(5) link removed)',
      ]);
      expect(await w.page.locator('#step-1 .markdown a').allInnerTexts()).toEqual(['site']);
      expect(await w.page.locator('#step-1 .markdown a').first().getAttribute('href')).toBe(
        'https://example.com/a',
      );
      // Arguments as text: each name, then its value decoded (line breaks kept, bidi shown).
      const args = async (step: number) => {
        const at = w.page.locator(`#step-${step} .args > dl > div`);
        return [await at.locator('dt').allInnerTexts(), await at.locator('dd').allInnerTexts()];
      };
      expect(await args(1)).toEqual([
        ['CommandLine', 'Cwd'],
        [`echo ${HTML} \uFFFDgnp.exe\uFFFD`, '/w/\uFFFDgnp.exe\uFFFD'],
      ]);
      expect(await args(3)).toEqual([
        ['TargetFile', 'CodeContent'],
        [`/w/${HTML}\uFFFDgnp.exe\uFFFD.md`, `${HTML}\n\uFFFDgnp.exe\uFFFD\n`],
      ]);
      // Only the list's own elements: none of the HTML became one.
      expect(
        await w.page
          .locator('.args *')
          .evaluateAll((es) => [...new Set(es.map((e) => e.tagName.toLowerCase()))].sort()),
      ).toEqual(['dd', 'div', 'dl', 'dt', 'span']);
      await w.page.locator('#step-1').getByRole('button', { name: 'raw' }).click();
      expect(await w.page.locator('#step-1 pre.raw').innerText()).toContain(
        '![pixel](http://evil.example/p.png)',
      );
      await nothingRan();
    });
  });

  it('shows the command output with colours as classes and the escapes neutralised', async () => {
    await withScreenshot(w.page, 'hostile-commands', async () => {
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}?tab=commands`);
      const out = w.page.locator('pre.ansi');
      await out.waitFor();
      expect(await w.page.locator('.command-head .badge').first().innerText()).toBe('3');
      expect(await out.locator('.ansi-red-fg').innerText()).toBe('red');
      expect(await out.innerText()).not.toContain('\u001b');
      expect(await out.innerText()).toContain('<script>alert(1)</script>');
      await nothingRan();
    });
  });

  it('shows the changed file path and diff as text, and the artifact sanitised', async () => {
    await withScreenshot(w.page, 'hostile-changes', async () => {
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}?tab=changes`);
      await w.page.locator('.d2h-file-wrapper').waitFor();
      expect(await w.page.locator('.change-head code').innerText()).toContain(
        '/w/<script>alert(1)</script>',
      );
      await nothingRan();
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}?tab=artifacts`);
      await w.page.locator('.artifact .markdown').waitFor();
      expect(await w.page.locator('.artifact .markdown h3').innerText()).toBe(
        `Plan \uFFFDgnp.exe\uFFFD`,
      );
      expect(BIDI).toHaveLength(9);
      await nothingRan();
    });
  });

  it('shows artifact versions as escaped diffs and a hostile file name as a text link', async () => {
    await withScreenshot(w.page, 'hostile-versions', async () => {
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}?tab=artifacts`);
      const plan = w.page.getByRole('region', { name: 'Artifact implementation_plan.md' });
      await plan.locator('summary').click();
      await plan.locator('.d2h-file-wrapper').waitFor();
      expect(await plan.locator('.d2h-del .d2h-code-line-ctn').first().innerText()).toBe(
        `# Old ${HTML} \uFFFDgnp.exe\uFFFD`,
      );
      const link = w.page.locator('table.files a');
      expect(await link.innerText()).toBe(
        'scratch/<img src=x onerror=alert(6)>\uFFFDgnp.exe\uFFFD.txt',
      );
      expect(await link.getAttribute('href')).toBe(
        `/api/sessions/${HOSTILE_ID}/files/scratch/${encodeURIComponent(HOSTILE_FILE)}`,
      );
      await nothingRan();
    });
  });

  it('marks search terms in a hostile step as text', async () => {
    await withScreenshot(w.page, 'hostile-highlight', async () => {
      await w.page.goto(`${world.origin}/sessions/${HOSTILE_ID}/steps/1?hl=onerror`);
      await w.page.locator('#step-1 mark').first().waitFor();
      const marks = await w.page.locator('#step-1 mark').allInnerTexts();
      expect(new Set(marks)).toEqual(new Set(['onerror']));
      // The answer opens raw so the marks show: its HTML is text there.
      expect(await w.page.locator('#step-1 pre.raw').innerText()).toContain(HTML);
      await nothingRan();
    });
  });
});

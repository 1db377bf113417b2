import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { describeInBrowser } from '../browser/browser';
import { at, planner, toolResult, userInput, type FullRecord } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import { axeViolations, consoleWorld } from './harness';

/**
 * Lows of issue #20's sixth outside review left after it was resolved (L6 the API panel behind
 * the key dialog, L7 the key dialog on Escape, L8 `[`/`]` at the table's ends, L9 "copied" said to a screen reader), with API keys
 * on, REDACT=on. Two sessions: 2 is the newer (the table's first row), 1 the older.
 */
const id = (n: number) => `c8000000-0000-4000-8000-00000000000${n}`;
const KEY = 'bql_review8-key-0123456789abcdefghijklmnopqrstuvwxyz012345';

const TASK_LOG = '.system_generated/tasks/task-3.log';
const run = (CommandLine: string) => ({ name: 'run_command', args: { CommandLine } });
/** A background task (its log in the folder), a result without an "Output:" line, no result. */
function commands(t: string): FullRecord[] {
  const result = (step: number, body: string, status = 'DONE') =>
    toolResult(step, at(t, step), body, { type: 'RUN_COMMAND', status });
  const uri = `file:///home/dev/.gemini/antigravity-ide/brain/${id(1)}/${TASK_LOG}`;
  return [
    planner(2, at(t, 2), { tool_calls: [run('sleep 30')] }),
    result(
      3,
      `Tool is running as a background task with task id: ${id(1)}/task-3\nTask logs are available at: ${uri}`,
      'RUNNING',
    ),
    planner(4, at(t, 4), { tool_calls: [run('npm test')] }),
    result(5, 'The command completed successfully.\nPASS a.spec.ts\nPASS b.spec.ts'),
    planner(6, at(t, 6), { tool_calls: [run('make')] }),
  ];
}

describeInBrowser('the console after the lows of its sixth outside review', () => {
  const ctx = consoleWorld({
    prefix: 'brainql-console-review8-',
    write: (home) => {
      for (const n of [1, 2]) {
        const t = `2026-07-0${n}T10:00:00Z`;
        writeSession(
          path.join(home, 'antigravity-ide/brain'),
          id(n),
          [
            userInput(0, t, { request: `task ${n}`, localTime: t }),
            planner(1, at(t, 1), { content: 'Done.' }),
            ...(n === 1 ? commands(t) : []),
          ],
          { files: n === 1 ? { [TASK_LOG]: 'slept\n' } : {} },
        );
      }
    },
    env: (home) => {
      const keys = path.join(home, '..', `${path.basename(home)}-keys.json`);
      fs.writeFileSync(keys, JSON.stringify([{ name: 'a', sha256: hashKey(KEY).toString('hex') }]));
      return { API_KEYS_FILE: keys };
    },
  });
  const dialog = () => ctx.w.page.getByRole('dialog', { name: 'API key' });

  it('keeps the focus in the key dialog through Escape, over a dimmed page (L7)', async () => {
    await ctx.w.page.goto(`${ctx.world.origin}/`);
    await dialog().waitFor();
    // The first answer asked for a key: Chromium reports its 401.
    ctx.w.problems.splice(0);
    const focused = () =>
      ctx.w.page.evaluate('document.activeElement.tagName + ":" + document.activeElement.name');
    expect(await focused()).toBe('INPUT:key');
    for (let n = 1; n <= 3; n++) {
      await ctx.w.page.keyboard.press('Escape');
      // Chromium closes the dialog on a second Escape and its close event opens it again: wait
      // for that, then for the focus (on the body before the fix, so this times out).
      await dialog().waitFor();
      await ctx.w.page.waitForFunction(`document.activeElement?.name === 'key'`, null, {
        timeout: 3000,
      });
      expect(await focused()).toBe('INPUT:key');
    }
    expect(
      await ctx.w.page.evaluate(
        `getComputedStyle(document.querySelector('dialog.key-dialog'), '::backdrop').backgroundColor`,
      ),
    ).toBe('rgba(0, 0, 0, 0.45)');
    // Typing goes where the focus is: the key, then Enter.
    await ctx.w.page.keyboard.type(KEY);
    await ctx.w.page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'hidden' });
    await ctx.w.page.locator('table.sessions tbody tr[data-index]').nth(1).waitFor();
  });

  it('hides the API panel while the key dialog asks, and shows it again after (L6)', async () => {
    const page = ctx.w.page;
    await page.goto(`${ctx.world.origin}/`);
    await page.getByRole('button', { name: 'API' }).click();
    const panel = page.locator('section.api-view');
    await panel.locator('table.roots tbody tr').first().waitFor();
    expect(await panel.locator('table.roots tbody tr td').first().innerText()).toBe(
      'antigravity-ide',
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await dialog().waitFor();
    ctx.w.problems.splice(0);
    expect(await panel.count()).toBe(0);
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await dialog().getByLabel('Key').fill(KEY);
    await dialog().getByRole('button', { name: 'Use this key' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await panel.locator('table.roots tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: 'API' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'API' }).click();
    expect(await panel.count()).toBe(0);
  });

  it('says when [ or ] finds no session, and moves on when one is there (L8)', async () => {
    const end = () => ctx.w.page.getByTestId('neighbour-end');
    await ctx.w.page.goto(`${ctx.world.origin}/`);
    await ctx.w.page.locator('table.sessions tbody tr[data-index]').nth(1).waitFor();
    await ctx.w.page.goto(`${ctx.world.origin}/sessions/${id(2)}`);
    await ctx.w.page.locator('#step-0').waitFor();
    // The status region is there, saying nothing yet (review9: one added with its text is
    // often not read out).
    expect(await end().innerText()).toBe('');
    await ctx.w.page.keyboard.press('[');
    await end().filter({ hasText: 'nowhere' }).waitFor();
    expect(await end().innerText()).toBe(
      'No session above this one in the sessions table: [ has nowhere to go.',
    );
    expect(await end().getAttribute('role')).toBe('status');
    expect(new URL(ctx.w.page.url()).pathname).toBe(`/sessions/${id(2)}`);
    await ctx.w.page.keyboard.press(']');
    await ctx.w.page.waitForURL(`**/sessions/${id(1)}`);
    await ctx.w.page.locator('#step-0').waitFor();
    // A new session starts without the last one's note.
    expect(await end().innerText()).toBe('');
    await ctx.w.page.keyboard.press(']');
    await end().filter({ hasText: 'nowhere' }).waitFor();
    expect(await end().innerText()).toBe(
      'No session below this one in the sessions table: ] has nowhere to go.',
    );
    expect(await axeViolations(ctx.w.page)).toEqual([]);
  });

  it('says "Link copied" in a status region when a step link is copied (L9)', async () => {
    await ctx.world.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: ctx.world.origin,
    });
    await ctx.w.page.goto(`${ctx.world.origin}/sessions/${id(1)}/steps/1`);
    const step = ctx.w.page.locator('#step-1');
    await step.waitFor();
    const status = step.getByRole('status');
    expect(await status.innerText()).toBe('');
    await step.getByRole('button', { name: 'Copy a link to this step' }).click();
    await step
      .getByRole('button', { name: 'Copy a link to this step' })
      .filter({ hasText: 'copied' })
      .waitFor();
    expect(await status.innerText()).toBe('Link copied');
    // Said, not shown: the region takes no room on the page.
    expect((await status.boundingBox())?.width).toBeLessThanOrEqual(1);
    expect(await ctx.w.page.evaluate('navigator.clipboard.readText()')).toBe(
      `${ctx.world.origin}/sessions/${id(1)}/steps/1`,
    );
  });

  it('says what a command without output text had instead (L10)', async () => {
    const page = ctx.w.page;
    await page.goto(`${ctx.world.origin}/sessions/${id(1)}`);
    const outcome = (step: number) => page.locator(`#step-${step} .outcome`);
    const said = async (step: number) => {
      await outcome(step).locator('summary').click();
      const text = outcome(step).locator('p', { hasNotText: 'Loading…' });
      await text.waitFor();
      return text.innerText();
    };
    await outcome(6).waitFor();
    expect(await said(2)).toBe(`Went on as a background task; its log: ${TASK_LOG} (step 3).`);
    expect(await said(4)).toBe('No "Output:" line in its result: see step 5.');
    expect(await said(6)).toBe('No result was recorded for this call.');
    // The log is the session's file; the step link its permalink.
    expect(await outcome(4).getByRole('link', { name: 'step 5' }).getAttribute('href')).toBe(
      `/sessions/${id(1)}/steps/5`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      outcome(2).getByRole('button', { name: TASK_LOG }).click(),
    ]);
    expect(fs.readFileSync(await download.path(), 'utf8')).toBe('slept\n');
    // The commands tab says the same under each command.
    await page.goto(`${ctx.world.origin}/sessions/${id(1)}?tab=commands`);
    await page.locator('li.command').nth(2).waitFor();
    expect(await page.locator('li.command > p').allInnerTexts()).toEqual([
      `Went on as a background task; its log: ${TASK_LOG} (step 3).`,
      'No "Output:" line in its result: see step 5.',
      'No result was recorded for this call.',
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });
});

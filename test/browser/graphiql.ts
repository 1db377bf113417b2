import type { Page } from 'playwright-core';

/** Driving GraphiQL's Monaco editors the way a user does (page scripts are strings: no DOM types here). */

/** The text of an editor region (Monaco draws spaces as no-break spaces). */
export async function editorText(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).innerText()).replace(/\u00a0/g, ' ');
}

/**
 * Replaces the query editor's text, as a user selecting all and typing would, and waits for
 * the active tab to take the operation's name (GraphiQL reads the editor a moment after a change).
 */
export async function typeQuery(page: Page, name: string, query: string): Promise<void> {
  await page.locator('.graphiql-query-editor .monaco-editor').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(query);
  await waitForTab(page, name);
}

/**
 * Replaces an editor's text by pasting it, as a user pastes a key (typed, the JSON editor
 * would close quotes and braces on its own). Needs the clipboard permissions.
 */
export async function pasteInto(page: Page, editor: string, text: string): Promise<void> {
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
  await page.locator(`${editor} .monaco-editor`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

export async function waitForTab(page: Page, name: string): Promise<void> {
  await page.locator('.graphiql-tab-active .graphiql-tab-button', { hasText: name }).waitFor();
}

/** Clicks Run; the JSON answer to the POST whose body mentions `mark` (the operation name). */
export async function runQuery(
  page: Page,
  mark: string,
): Promise<{ body: unknown; authorization: string | undefined }> {
  const response = page.waitForResponse(
    (r) =>
      r.url().endsWith('/graphql') &&
      r.request().method() === 'POST' &&
      (r.request().postData() ?? '').includes(mark),
  );
  await page.locator('.graphiql-execute-button').click();
  const r = await response;
  return { body: await r.json(), authorization: r.request().headers()['authorization'] };
}

/**
 * Waits until the result pane shows `text`. Polled from here, not with page.waitForFunction:
 * a predicate that is not true at once is polled inside the page through eval, which the
 * page's CSP (script-src 'self') refuses, so a slow first result failed with an EvalError
 * (issue 23: seen beside a busy process).
 */
export async function resultShows(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = (await page.locator('.graphiql-response').first().textContent()) ?? '';
    if (shown.replace(/\u00a0/g, ' ').includes(text)) return;
    if (Date.now() > deadline) {
      throw new Error(`the result pane never showed ${JSON.stringify(text)}; it shows ${shown}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

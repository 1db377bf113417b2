import { EXPORT_SESSION, EXPORT_STEPS } from '../operations/documents';
import { OperationError, requireSession } from '../operations/operation-error';
import type { RunOperation } from '../operations/run';
import { atifExport } from './atif';
import { jsonExport } from './json';
import { markdownExport } from './markdown';
import { visibleJson, visibleText } from './visible-text';
import type { ExportFormat, ExportProblem, ExportSession, ExportStep, ExportWriter } from './types';

export interface SessionExport {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

export interface ExportOptions {
  /** Steps read per query (1..500). */
  pageSize?: number;
  /** How the export waits out a rate limit (a test may pass a fake clock). */
  wait?: (ms: number) => Promise<void>;
  /**
   * Called before each page of steps is asked for: what came before it (the header, the last
   * page) is written, so its large values are given back.
   */
  pageDone?: () => void;
  /**
   * Aborted when nobody reads the export any more (the client left): no page is asked for
   * after that, and a rate limit is no longer waited out.
   */
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `ask()`, waiting out RATE_LIMITED as often as it comes: once the first byte is out an error
 * can only cut the download short, so a page over the caller's rate is read when the bucket
 * allows it instead (the limit is kept, the download is slowed).
 */
async function patiently<T>(
  ask: () => Promise<T>,
  wait: (ms: number) => Promise<void>,
  signal?: AbortSignal,
) {
  for (;;) {
    // Nobody reads on: retrying would go on for good, taking values no one frees.
    signal?.throwIfAborted();
    try {
      return await ask();
    } catch (error) {
      const retry = error instanceof OperationError ? error.retryAfterSeconds : undefined;
      if (retry === undefined || (error as OperationError).code !== 'RATE_LIMITED') throw error;
      await wait(retry * 1000);
    }
  }
}

/**
 * Each format's writer, and how its text is made safe to show (visible-text.ts): markdown is
 * read in pagers and renderers, so control and bidi formatting characters become U+FFFD; JSON
 * keeps every value exact, with those characters as `\uXXXX` escapes.
 */
const FORMATS: Record<
  ExportFormat,
  { writer: ExportWriter; shown: (text: string) => string; ext: string; type: string }
> = {
  markdown: {
    writer: markdownExport,
    shown: visibleText,
    ext: 'md',
    type: 'text/markdown; charset=utf-8',
  },
  json: {
    writer: jsonExport,
    shown: visibleJson,
    ext: 'json',
    type: 'application/json; charset=utf-8',
  },
  atif: {
    writer: atifExport,
    shown: visibleJson,
    ext: 'atif.json',
    type: 'application/json; charset=utf-8',
  },
};

async function* mapChunks(
  chunks: AsyncIterable<string>,
  map: (text: string) => string,
): AsyncIterable<string> {
  for await (const chunk of chunks) yield map(chunk);
}

interface StepsPage {
  session: {
    steps: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: { node: ExportStep }[];
    };
  } | null;
}

/** A page the server would not answer whole: over MAX_RESPONSE_BYTES or the query timeout. */
const GROW_AFTER = 4;

const tooBig = (error: unknown): boolean =>
  error instanceof OperationError && error.code === 'QUERY_TOO_COMPLEX';

/**
 * The session's steps, one query per page, each page asked for only when the previous one has
 * been consumed: memory holds one page whatever the session's length. A page over the
 * server's size or time limits is asked again at half the size, down to one step; one step too
 * large at the full tier is exported from its compact record (its truncatedFields say so).
 * After GROW_AFTER pages answered in a row, the size doubles again (up to `pageSize`): a
 * refused page costs a page's reading, so growing back at every page would pay it every other.
 */
export async function* stepPages(
  run: RunOperation,
  id: string,
  pageSize: number,
  wait: (ms: number) => Promise<void> = sleep,
  expected = 0,
  pageDone: () => void = () => {},
  signal?: AbortSignal,
): AsyncIterable<ExportStep> {
  let after: string | null = null;
  let seen = 0;
  let size = pageSize;
  let full = true;
  let answered = 0;
  for (;;) {
    // The consumer asked for the next step: what came before (the header, the last page) is
    // written, its values freed. A page must not wait for room while its export holds the
    // header's values: three exports doing so held the whole budget and waited for good.
    pageDone();
    // A page no larger than the steps the header counted: a query is costed (and charged)
    // by its `first`, so a short session is not charged for a full page.
    const left = expected - seen;
    const variables = { id, first: left > 0 ? Math.min(size, left) : size, after, full };
    let data: StepsPage;
    try {
      data = await patiently(() => run<StepsPage>(EXPORT_STEPS, variables), wait, signal);
    } catch (error) {
      if (!tooBig(error) || (size === 1 && !full)) throw error;
      answered = 0;
      if (size > 1) size = Math.floor(size / 2);
      else full = false;
      continue;
    }
    const steps = requireSession(data.session).steps;
    seen += steps.edges.length;
    for (const edge of steps.edges) yield edge.node;
    if (!steps.pageInfo.hasNextPage || steps.pageInfo.endCursor === null) return;
    after = steps.pageInfo.endCursor;
    full = true;
    if (++answered === GROW_AFTER) {
      answered = 0;
      size = Math.min(pageSize, size * 2);
    }
  }
}

/**
 * Exports a session in `format`. The session is resolved first, so an absent (NOT_FOUND) or
 * ambiguous id, or a caller over its rate, rejects here, before any chunk exists; the steps
 * are then read page by page (full tier) as the chunks are consumed.
 */
export async function exportSession(
  run: RunOperation,
  id: string,
  format: ExportFormat,
  { pageSize = 50, wait = sleep, pageDone, signal }: ExportOptions = {},
): Promise<SessionExport> {
  // The problems come with the header (as they stand when the export begins), while the
  // caller's points last: asked after the steps pages, they would wait out the rate limit.
  type Header = { session: (ExportSession & { problems: ExportProblem[] }) | null };
  const data = await run<Header>(EXPORT_SESSION, { id });
  const { problems, ...session } = requireSession(data.session);
  const { writer, shown, ext, type } = FORMATS[format];
  const steps = stepPages(run, session.id, pageSize, wait, session.stepCount, pageDone, signal);
  return {
    fileName: `${session.id}.${ext}`,
    contentType: type,
    chunks: mapChunks(
      writer(session, steps, () => Promise.resolve(problems)),
      shown,
    ),
  };
}

import { EXPORT_SESSION, EXPORT_STEPS } from '../operations/documents';
import { requireSession } from '../operations/operation-error';
import type { RunOperation } from '../operations/run';
import { atifExport } from './atif';
import { jsonExport } from './json';
import { markdownExport } from './markdown';
import type { ExportFormat, ExportSession, ExportStep, ExportWriter } from './types';

export interface SessionExport {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

export interface ExportOptions {
  /** Steps read per query (1..500). */
  pageSize?: number;
}

const FORMATS: Record<ExportFormat, { writer: ExportWriter; ext: string; type: string }> = {
  markdown: { writer: markdownExport, ext: 'md', type: 'text/markdown; charset=utf-8' },
  json: { writer: jsonExport, ext: 'json', type: 'application/json; charset=utf-8' },
  atif: { writer: atifExport, ext: 'atif.json', type: 'application/json; charset=utf-8' },
};

interface StepsPage {
  session: {
    steps: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: { node: ExportStep }[];
    };
  } | null;
}

/**
 * The session's steps, one query per page, each page asked for only when the previous one has
 * been consumed: memory holds one page whatever the session's length.
 */
export async function* stepPages(
  run: RunOperation,
  id: string,
  pageSize: number,
): AsyncIterable<ExportStep> {
  let after: string | null = null;
  for (;;) {
    const data: StepsPage = await run<StepsPage>(EXPORT_STEPS, { id, first: pageSize, after });
    const steps = requireSession(data.session).steps;
    for (const edge of steps.edges) yield edge.node;
    if (!steps.pageInfo.hasNextPage || steps.pageInfo.endCursor === null) return;
    after = steps.pageInfo.endCursor;
  }
}

/**
 * Exports a session in `format`. The session is resolved first, so an absent (NOT_FOUND) or
 * ambiguous id rejects here, before any chunk exists; the steps are then read page by page
 * (full tier) as the chunks are consumed.
 */
export async function exportSession(
  run: RunOperation,
  id: string,
  format: ExportFormat,
  { pageSize = 50 }: ExportOptions = {},
): Promise<SessionExport> {
  const data = await run<{ session: ExportSession | null }>(EXPORT_SESSION, { id });
  const session = requireSession(data.session);
  const { writer, ext, type } = FORMATS[format];
  return {
    fileName: `${session.id}.${ext}`,
    contentType: type,
    chunks: writer(session, stepPages(run, session.id, pageSize)),
  };
}

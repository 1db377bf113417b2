import type { SessionFields, StepFields, ToolCallFields } from '../operations/shapes';

/** The data the exporters read: the selections of EXPORT_SESSION and EXPORT_STEPS. */

export interface ExportArtifact {
  name: string;
  kind: string;
  summary: string | null;
  updatedAt: string | null;
  content: string;
}

export interface ExportSession extends SessionFields {
  artifacts: ExportArtifact[];
}

export interface ExportToolCall extends ToolCallFields {
  result: { index: number; position: number } | null;
}

/** Every field at the full tier, with each call's result and the output's text. */
export interface ExportStep extends Omit<StepFields, 'toolCalls' | 'output'> {
  toolCalls: ExportToolCall[];
  output: { file: string; size: number; duplicatesContent: boolean; text: string } | null;
}

export type ExportFormat = 'markdown' | 'json' | 'atif';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['markdown', 'json', 'atif'];

/** A line the store could not take as written (Session.problems). */
export interface ExportProblem {
  code: string;
  message: string;
  file: string | null;
  line: number | null;
}

/**
 * What an exporter writes: text chunks, produced as the steps are read; `problems` (as they
 * stood when the export began) at the end.
 */
export type ExportWriter = (
  session: ExportSession,
  steps: AsyncIterable<ExportStep>,
  problems: () => Promise<ExportProblem[]>,
) => AsyncIterable<string>;

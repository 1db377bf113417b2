/** The data the exporters read: the selections of EXPORT_SESSION and EXPORT_STEPS. */

export interface ExportArtifact {
  name: string;
  kind: string;
  summary: string | null;
  updatedAt: string | null;
  content: string;
}

export interface ExportSession {
  id: string;
  root: { path: string; flavor: string; environment: string };
  createdAt: string;
  updatedAt: string;
  userRequest: string | null;
  model: string | null;
  localTime: string | null;
  mentionedFiles: string[];
  workspaceRoot: string | null;
  stepCount: number;
  toolCallCount: number;
  errorCount: number;
  artifacts: ExportArtifact[];
}

export interface ExportToolCall {
  position: number;
  name: string;
  args: unknown;
  toolAction: string | null;
  toolSummary: string | null;
  result: { index: number; position: number } | null;
}

export interface ExportStep {
  index: number;
  position: number;
  source: string;
  type: string;
  status: string;
  createdAt: string;
  content: string | null;
  thinking: string | null;
  error: string | null;
  truncatedFields: string[];
  userRequest: string | null;
  toolCalls: ExportToolCall[];
  output: { file: string; size: number; duplicatesContent: boolean; text: string } | null;
  tokens: { input: number | null; output: number | null; cacheRead: number | null } | null;
}

export type ExportFormat = 'markdown' | 'json' | 'atif';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['markdown', 'json', 'atif'];

/** What an exporter writes: text chunks, produced as the steps are read. */
export type ExportWriter = (
  session: ExportSession,
  steps: AsyncIterable<ExportStep>,
) => AsyncIterable<string>;

/**
 * The TypeScript shapes of the documents' shared fragments (documents.ts): what REST items, CLI
 * output and the exporters hold, in GraphQL field names. One place, so a field added to a
 * fragment is added to every reader's type at once.
 */

/** `fragment SessionFields`. */
export interface SessionFields {
  id: string;
  /** The push key name it came from; null for mounted roots. */
  source: string | null;
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
}

/** `toolCalls { … }` of `fragment StepFields`. */
export interface ToolCallFields {
  position: number;
  name: string;
  args: unknown;
  toolAction: string | null;
  toolSummary: string | null;
}

/** `fragment StepFields`; `output.text` where a document also asks for it. */
export interface StepFields {
  index: number;
  position: number;
  source: string;
  type: string;
  status: string;
  createdAt: string;
  content: string | null;
  thinking: string | null;
  error: string | null;
  toolCalls: ToolCallFields[];
  truncatedFields: string[];
  userRequest: string | null;
  output: { file: string; size: number; duplicatesContent: boolean; text?: string } | null;
  tokens: { input: number | null; output: number | null; cacheRead: number | null } | null;
}

import { cell, code, fenced } from './fence';
import type {
  ExportArtifact,
  ExportProblem,
  ExportSession,
  ExportStep,
  ExportToolCall,
} from './types';

function metadataTable(s: ExportSession): string {
  const rows: [string, string | number | null][] = [
    ['id', s.id],
    ['flavor', s.root.flavor],
    ['environment', s.root.environment],
    ['created', s.createdAt],
    ['updated', s.updatedAt],
    ['model', s.model],
    ['local time', s.localTime],
    ['workspace', s.workspaceRoot],
    ['steps', s.stepCount],
    ['tool calls', s.toolCallCount],
    ['errors', s.errorCount],
    ['mentioned files', s.mentionedFiles.join(', ')],
  ];
  return ['| field | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`)]
    .join('\n')
    .concat('\n');
}

function header(s: ExportSession): string {
  const request = s.userRequest === null ? '_none_\n' : fenced(s.userRequest, 'text');
  return `# Session ${s.id}\n\n## Request\n\n${request}\n## Metadata\n\n${metadataTable(s)}\n## Steps\n`;
}

function toolCall(call: ExportToolCall): string {
  const result = call.result
    ? ` → result: step ${call.result.index} (position ${call.result.position})`
    : '';
  const summary = call.toolSummary ? ` ${cell(call.toolSummary)}` : '';
  return `- call ${call.position}: ${code(call.name)}${summary}${result}\n\n${fenced(
    JSON.stringify(call.args, null, 2),
    'json',
  )}\n`;
}

/** One step: its heading, texts, tool calls and output, each brain text in a safe fence. */
function step(s: ExportStep): string {
  const parts = [
    `\n### Step ${s.index} · ${cell(s.type)} · ${s.source} · ${s.status}\n\n` +
      `position ${s.position}, ${s.createdAt}\n`,
  ];
  if (s.content !== null && s.content !== '') {
    parts.push(`\n${fenced(s.content, s.source === 'MODEL' ? 'markdown' : 'text')}`);
  }
  if (s.thinking) parts.push(`\n**Thinking**\n\n${fenced(s.thinking, 'text')}`);
  if (s.error) parts.push(`\n**Error**\n\n${fenced(s.error, 'text')}`);
  if (s.toolCalls.length > 0)
    parts.push(`\n**Tool calls**\n\n${s.toolCalls.map(toolCall).join('')}`);
  if (s.output && !s.output.duplicatesContent) {
    parts.push(
      `\n**Output** (${code(s.output.file)}, ${s.output.size} bytes)\n\n${fenced(s.output.text, 'text')}`,
    );
  }
  return parts.join('');
}

function artifact(a: ExportArtifact): string {
  const summary = a.summary ? `\n${cell(a.summary)}\n` : '';
  return `\n### ${code(a.name)} (${cell(a.kind)})\n${summary}\n${fenced(a.content, 'markdown')}`;
}

function problem(p: ExportProblem): string {
  const where = p.file === null ? '' : ` ${code(p.line === null ? p.file : `${p.file}:${p.line}`)}`;
  return `- ${code(p.code)}${where}: ${cell(p.message)}\n`;
}

/**
 * A readable transcript: request, metadata table, every step, the artifacts, then the lines
 * the store could not take as written (so a reader knows what the transcript leaves out).
 */
export async function* markdownExport(
  session: ExportSession,
  steps: AsyncIterable<ExportStep>,
  problems: () => Promise<ExportProblem[]>,
): AsyncIterable<string> {
  yield header(session);
  for await (const s of steps) yield step(s);
  if (session.artifacts.length > 0) {
    yield '\n## Artifacts\n';
    for (const a of session.artifacts) yield artifact(a);
  }
  const found = await problems();
  if (found.length > 0) yield `\n## Problems\n\n${found.map(problem).join('')}`;
}

import type { ExportProblem, ExportSession, ExportStep } from './types';

/** The Agent Trajectory Interchange Format version written (Harbor RFC 0001). */
export const ATIF_VERSION = 'ATIF-v1.7';

type Json = Record<string, unknown>;

/** ATIF's step source: user for USER_INPUT, agent for the model's records, system otherwise. */
export function atifSource(step: Pick<ExportStep, 'type' | 'source'>): 'user' | 'agent' | 'system' {
  if (step.type === 'USER_INPUT') return 'user';
  return step.source === 'MODEL' ? 'agent' : 'system';
}

/** ATIF wants a JSON object of arguments; any other value is kept under `value`. */
function argumentsOf(args: unknown): Json {
  return args !== null && typeof args === 'object' && !Array.isArray(args)
    ? (args as Json)
    : { value: args };
}

export const toolCallId = (step: ExportStep, callPosition: number): string =>
  `call-${step.position + 1}-${callPosition}`;

function metricsOf(step: ExportStep): Json | undefined {
  const t = step.tokens;
  if (!t) return undefined;
  const m: Json = {};
  if (t.input !== null) m.prompt_tokens = t.input;
  if (t.output !== null) m.completion_tokens = t.output;
  if (t.cacheRead !== null) m.cached_tokens = t.cacheRead;
  return Object.keys(m).length > 0 ? m : undefined;
}

/**
 * One ATIF step per compact record (step_id = position + 1). A record that answers an earlier
 * tool call carries the answer as its observation; the call it answers is named in `extra`
 * (ATIF's source_call_id may only name a call of the same step).
 */
function atifStep(step: ExportStep, answers: string | undefined): Json {
  const source = atifSource(step);
  const out: Json = {
    step_id: step.position + 1,
    timestamp: step.createdAt,
    source,
    message: (source === 'user' ? step.userRequest : null) ?? step.content ?? '',
  };
  const extra: Json = { step_index: step.index, type: step.type, status: step.status };
  if (step.error !== null) extra.error = step.error;
  if (step.truncatedFields.length > 0) extra.truncated_fields = step.truncatedFields;
  if (answers) extra.result_of = answers;
  const calls = step.toolCalls.map((c) => ({
    tool_call_id: toolCallId(step, c.position),
    function_name: c.name,
    arguments: argumentsOf(c.args),
  }));
  if (source === 'agent') {
    if (step.thinking !== null) out.reasoning_content = step.thinking;
    if (calls.length > 0) out.tool_calls = calls;
    const metrics = metricsOf(step);
    if (metrics) out.metrics = metrics;
  } else {
    if (step.thinking !== null) extra.thinking = step.thinking;
    if (calls.length > 0) extra.tool_calls = calls;
  }
  if (source !== 'user' && (answers || step.output)) {
    const content = step.output?.text ?? step.content ?? '';
    out.observation = { results: [{ content }] };
  }
  if (step.output) extra.output_file = step.output.file;
  out.extra = extra;
  return out;
}

function problemNotes(found: ExportProblem[]): string {
  const lines = found.map((p) => {
    const where = p.file === null ? '' : ` ${p.file}${p.line === null ? '' : `:${p.line}`}`;
    return `${p.code}${where}: ${p.message}`;
  });
  return `Problems in the brain files:\n${lines.join('\n')}`;
}

/** A trajectory document, written a step at a time, with totals at the end. */
export async function* atifExport(
  session: ExportSession,
  steps: AsyncIterable<ExportStep>,
  problems: () => Promise<ExportProblem[]>,
): AsyncIterable<string> {
  const agent: Json = { name: session.root.flavor, version: 'unknown' };
  if (session.model !== null) agent.model_name = session.model;
  agent.extra = { environment: session.root.environment };
  const extra = {
    exporter: 'brainql',
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    user_request: session.userRequest,
    workspace_root: session.workspaceRoot,
    local_time: session.localTime,
    mentioned_files: session.mentionedFiles,
  };
  yield (
    `{"schema_version":${JSON.stringify(ATIF_VERSION)},"session_id":${JSON.stringify(session.id)},` +
    `"agent":${JSON.stringify(agent)},"extra":${JSON.stringify(extra)},"steps":[`
  );
  // Result position -> the call it answers; an entry lives until its record is written.
  const pending = new Map<number, string>();
  const totals = { total_prompt_tokens: 0, total_completion_tokens: 0, total_cached_tokens: 0 };
  let count = 0;
  for await (const step of steps) {
    for (const c of step.toolCalls) {
      if (c.result) pending.set(c.result.position, toolCallId(step, c.position));
    }
    const answers = pending.get(step.position);
    pending.delete(step.position);
    totals.total_prompt_tokens += step.tokens?.input ?? 0;
    totals.total_completion_tokens += step.tokens?.output ?? 0;
    totals.total_cached_tokens += step.tokens?.cacheRead ?? 0;
    yield count === 0 ? '\n' : ',\n'; // apart from the step: see jsonExport
    yield JSON.stringify(atifStep(step, answers));
    count++;
  }
  // The lines the store could not take as written, as the trajectory's free-text notes.
  const found = await problems();
  const notes = found.length === 0 ? '' : `"notes":${JSON.stringify(problemNotes(found))},`;
  yield `\n],${notes}"final_metrics":${JSON.stringify({ ...totals, total_steps: count })}}\n`;
}

import { localTime, text } from '../output/format';
import type { Printer } from '../output/printer';
import type { StepFields, ToolCallFields } from '../../operations/shapes';

/** How `steps` and `step` print: one line per step, or one step in full. */

/** A call as the STEP document asks for it: with its result step. */
export type ToolCall = ToolCallFields & {
  result?: { index: number; position: number; type: string; status: string } | null;
};

export type StepItem = Omit<StepFields, 'toolCalls'> & { toolCalls: ToolCall[] };

/** The text a step line shows: the request, else the content, the error, the thinking. */
function gist(s: StepItem): string {
  return s.userRequest ?? s.content ?? s.error ?? s.thinking ?? '';
}

export function printSteps(out: Printer, items: StepItem[], totalCount: number): void {
  if (out.json) return out.value({ items, totalCount });
  out.table(
    [
      { header: 'pos', align: 'right' },
      { header: 'step', align: 'right' },
      { header: 'created' },
      { header: 'type' },
      { header: 'status' },
      { header: 'tools' },
      { header: 'text', flex: true },
    ],
    items.map((s) => [
      text(s.position),
      text(s.index),
      localTime(s.createdAt),
      s.type,
      s.status,
      s.toolCalls.map((c) => c.name).join(','),
      gist(s),
    ]),
  );
}

export function printStep(out: Printer, s: StepItem): void {
  if (out.json) return out.value(s);
  out.title(`step ${s.index} (position ${s.position})`);
  out.fields([
    ['type', s.type],
    ['status', s.status],
    ['source', s.source],
    ['created', localTime(s.createdAt)],
    ['truncated', s.truncatedFields.join(', ')],
    [
      'tokens',
      s.tokens
        ? `in ${text(s.tokens.input)} out ${text(s.tokens.output)} cache ${text(s.tokens.cacheRead)}`
        : null,
    ],
    ['error', s.error],
  ]);
  if (s.userRequest !== null) {
    out.heading('request');
    out.block(s.userRequest);
  }
  if (s.content !== null && s.content !== s.userRequest) {
    out.heading('content');
    out.block(s.content);
  }
  if (s.thinking !== null) {
    out.heading('thinking');
    out.block(s.thinking);
  }
  for (const c of s.toolCalls) {
    const result = c.result ? ` -> step ${c.result.index} ${c.result.status}` : '';
    out.heading(`tool call ${c.position}: ${c.name}${result}`);
    out.block(JSON.stringify(c.args, null, 2), 'json');
  }
  if (s.output) {
    out.heading(`output (${s.output.file}, ${s.output.size} bytes)`);
    if (s.output.duplicatesContent) out.line('(the same as the content)');
    else if (s.output.text !== undefined) out.block(s.output.text);
  }
}

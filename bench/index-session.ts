import * as fs from 'node:fs';
import * as path from 'node:path';
import { iso } from './generate';
import type { Mutator, Real, Rec } from './real-records';

/**
 * One session of the index bench's home, made of real records: each template record again
 * with new step indexes and times and its texts cut from the real texts of its kind at another
 * place and length, in the tiers the session has (compact, full, or both), with step outputs
 * and artifacts.
 */

export type Tier = 'compact' | 'full' | 'both';

export interface SessionPlan {
  tier: Tier;
  /** About this many bytes of transcript (the compact file, else the full one). */
  bytes: number;
  start: number;
  outputs: boolean;
  artifacts: number;
  /** A sentence put into the first request (the bench's rare term). */
  plant: string | null;
}

export interface Written {
  transcriptBytes: number;
  fileBytes: number;
}

const SETTINGS =
  "\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection` from None to Gemini 3.5 Flash (High). No need to comment on this change if the user doesn't ask about it.\n</USER_SETTINGS_CHANGE>";
const NO_OUTPUT = new Set([
  'USER_INPUT',
  'PLANNER_RESPONSE',
  'CONVERSATION_HISTORY',
  'KNOWLEDGE_ARTIFACTS',
  'SYSTEM_MESSAGE',
  'ERROR_MESSAGE',
]);
const ARTIFACTS = ['walkthrough.md', 'implementation_plan.md', 'task.md'];

/** A length near `len`: a third of it to three times it, log-uniformly. */
function near(len: number, r: () => number): number {
  return Math.max(1, Math.round(len * Math.exp((r() * 2 - 1) * Math.log(3))));
}

function decodeArg(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value.replace(/\n<truncated \d+ bytes>$/, '');
  }
}

/** Full-tier records of about `bytes` (as JSON lines), from real records. */
export function* fullRecords(real: Real, plan: SessionPlan, m: Mutator, r: () => number) {
  const template = real.templates[Math.floor(r() * real.templates.length)];
  const { pools } = real;
  let [t, step, bytes, first] = [plan.start, 0, 0, true];
  const n = template.records.length;
  for (let i = 0; bytes < plan.bytes; i++) {
    const orig = template.records[i % n];
    // The template's gaps between step indexes (4 -> 6 is usual); one step where it starts over.
    const before = i % n === 0 ? null : (template.records[(i % n) - 1].step_index as number);
    if (i > 0) step += before === null ? 1 : Math.max(1, (orig.step_index as number) - before);
    t += 1000 + Math.floor(r() * 20_000);
    const rec: Rec = {
      step_index: step,
      source: orig.source,
      type: orig.type,
      status: orig.status,
    };
    if (orig.error !== undefined) rec.error = orig.error;
    rec.created_at = iso(t);
    const content = typeof orig.content === 'string' ? orig.content : null;
    if (content !== null && orig.type === 'USER_INPUT') {
      let request = m.text(pools.request, near(content.length / 2, r)).trim() || 'Please go on.';
      if (first && plan.plant) request = `${request}\n${plan.plant}\n`;
      const local = iso(t + 3_600_000).replace('Z', '+01:00');
      rec.content = `<USER_REQUEST>\n${request}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: ${local}.\n</ADDITIONAL_METADATA>${first ? SETTINGS : ''}`;
      first = false;
    } else if (content !== null) {
      const pool = orig.type === 'PLANNER_RESPONSE' ? pools.planner : pools.result;
      const head = /^Created At:/.test(content)
        ? `Created At: ${iso(t)}\nCompleted At: ${iso(t + 900)}\n`
        : '';
      rec.content = head + m.text(pool, near(content.length, r));
    }
    if (typeof orig.thinking === 'string')
      rec.thinking = m.text(pools.thinking, near(orig.thinking.length, r));
    if (Array.isArray(orig.tool_calls)) {
      rec.tool_calls = (orig.tool_calls as { name: string; args: Rec }[]).map((c) => {
        const args: Rec = {};
        for (const [k, v] of Object.entries(c.args ?? {})) {
          const plain = template.full ? v : decodeArg(v);
          args[k] = typeof plain === 'string' ? m.vary(plain) : plain;
        }
        return { name: c.name, args };
      });
    }
    const line = JSON.stringify(rec);
    bytes += line.length + 1;
    yield { rec, line };
  }
}

function cut(text: string): string {
  return `${text.slice(0, 2048)}\n<truncated ${Buffer.byteLength(text) - 4096} bytes>\n${text.slice(-2048)}`;
}

/** The compact tier's line of a full record: encoded arguments, long texts cut with markers. */
export function compactLine(rec: Rec, withKey: boolean): string {
  const out: Rec = { ...rec };
  const truncated: string[] = [];
  for (const f of ['content', 'thinking']) {
    const v = out[f];
    if (typeof v === 'string' && v.length > 4096) {
      out[f] = cut(v);
      truncated.push(f);
    }
  }
  if (Array.isArray(rec.tool_calls)) {
    out.tool_calls = (rec.tool_calls as { name: string; args: Rec }[]).map((c) => {
      const args: Rec = {};
      for (const [k, v] of Object.entries(c.args)) {
        const enc = JSON.stringify(v);
        args[k] =
          enc.length > 2048 ? `${enc.slice(0, 2048)}\n<truncated ${enc.length - 2048} bytes>` : enc;
        if (enc.length > 2048 && !truncated.includes('tool_calls')) truncated.push('tool_calls');
      }
      return { name: c.name, args };
    });
  }
  if (withKey && truncated.length > 0) out.truncated_fields = truncated;
  return JSON.stringify(out);
}

export function writeSession(
  dir: string,
  plan: SessionPlan,
  real: Real,
  m: Mutator,
  r: () => number,
): Written {
  const logs = path.join(dir, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const [full, compact] = [[] as string[], [] as string[]];
  let fileBytes = 0;
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    fileBytes += Buffer.byteLength(text);
  };
  for (const { rec, line } of fullRecords(real, plan, m, r)) {
    if (plan.tier !== 'compact') full.push(line);
    if (plan.tier !== 'full') compact.push(compactLine(rec, plan.tier === 'both'));
    const content = rec.content;
    if (
      plan.outputs &&
      typeof content === 'string' &&
      !NO_OUTPUT.has(rec.type as string) &&
      r() < 0.4
    ) {
      const output = content.replace(/^Created At: .*\nCompleted At: .*\n/, '');
      put(
        path.join(dir, '.system_generated', 'steps', String(rec.step_index), 'output.txt'),
        output,
      );
    }
  }
  let transcriptBytes = 0;
  for (const [name, lines] of [
    ['transcript.jsonl', compact],
    ['transcript_full.jsonl', full],
  ] as const) {
    if (lines.length === 0) continue;
    const text = lines.join('\n') + '\n';
    fs.writeFileSync(path.join(logs, name), text);
    transcriptBytes += Buffer.byteLength(text);
  }
  for (const name of ARTIFACTS.slice(0, plan.artifacts)) {
    put(path.join(dir, name), m.text(real.pools.artifact, near(3000, r)));
    if (r() < 0.5) {
      const meta = {
        artifactType: 'ARTIFACT_TYPE_OTHER',
        summary: m.slice(real.pools.planner, 120),
        updatedAt: iso(plan.start + 600_000),
      };
      put(path.join(dir, `${name}.metadata.json`), JSON.stringify(meta));
    }
  }
  return { transcriptBytes, fileBytes };
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Redactor } from '../../src/redaction/redactor';

/**
 * The false-positive rate, measured: every finding of the detectors over all the real sessions
 * (test/fixtures/real) and the example home, listed exactly. They hold no secret but talk about
 * passwords and tokens (French prose about `mot de passe`, `-p` options, `token` in code), so a
 * new rule that masks ordinary text adds a line here and fails. Read as served (the raw bytes of
 * every file) and as the API decodes them (every record, compact arguments decoded).
 */

const ROOT = path.resolve(__dirname, '../..');
const CORPORA = ['test/fixtures/real', 'example-home'];

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const FILES = CORPORA.flatMap((c) => filesUnder(path.join(ROOT, c)));

/** `file:line kind "12 characters before|the masked text"` for each span in `text`. */
function describeSpans(r: Redactor, file: string, text: string, where = ''): string[] {
  return r.findSpans(text).map((s) => {
    const line = text.slice(0, s.start).split('\n').length;
    const before = text.slice(Math.max(0, s.start - 12), s.start);
    return `${path.relative(ROOT, file)}:${line}${where} ${s.kind} ${JSON.stringify(`${before}|${text.slice(s.start, s.end)}`)}`;
  });
}

/** A compact record's arguments decoded as the store decodes them. */
function decodedArgs(record: Record<string, unknown>): unknown {
  const calls = Array.isArray(record.tool_calls) ? (record.tool_calls as unknown[]) : [];
  return calls.map((c) => {
    const args = (c as { args?: Record<string, unknown> }).args ?? {};
    return Object.fromEntries(
      Object.entries(args).map(([k, v]) => {
        try {
          return [k, typeof v === 'string' ? (JSON.parse(v) as unknown) : v];
        } catch {
          return [k, v];
        }
      }),
    );
  });
}

describe('detectors over every real fixture: the exact list of findings', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });

  it('reads a corpus that talks about secrets', () => {
    const all = FILES.map((f) => fs.readFileSync(f, 'latin1')).join('\n');
    const count = (w: string) => all.split(w).length - 1;
    expect([
      FILES.length,
      count('password'),
      count('token'),
      count('passe'),
      count('-p'),
      count('mot de passe'),
    ]).toEqual([43, 24, 39, 16, 18, 0]);
  });

  it('finds nothing in the raw bytes of any file', () => {
    const found = FILES.flatMap((f) => describeSpans(r, f, fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds nothing in any decoded record (as GraphQL and the secrets report read them)', () => {
    const counted: string[] = [];
    const counting = new Redactor({ enabled: true, extraPatterns: [] }, (kind) =>
      counted.push(kind),
    );
    const found: string[] = [];
    for (const f of FILES.filter((x) => x.endsWith('.jsonl'))) {
      fs.readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          let record: Record<string, unknown>;
          try {
            record = JSON.parse(line) as Record<string, unknown>;
          } catch {
            return;
          }
          counted.length = 0;
          counting.redactJson({ ...record, tool_calls: decodedArgs(record) });
          for (const kind of counted) found.push(`${path.relative(ROOT, f)}:${i + 1} ${kind}`);
        });
    }
    expect(found).toEqual([]);
  });
});

import * as os from 'node:os';

/** The bench's output: machine facts, then one fixed-width table of figures and verdicts. */

export interface Row {
  figure: string;
  value: string;
  target: string;
  verdict: 'PASS' | 'FAIL' | '';
}

/** A row; with `ok` given it carries a verdict, else it is information only. */
export function row(figure: string, value: string, target = '', ok?: boolean): Row {
  return { figure, value, target, verdict: ok === undefined ? '' : ok ? 'PASS' : 'FAIL' };
}

export const ms = (v: number): string => (v < 10 ? v.toFixed(3) : v.toFixed(1)) + ' ms';
export const mb = (v: number): string => (v / 2 ** 20).toFixed(1) + ' MiB';

export function machine(): string {
  const cpus = os.cpus();
  return [
    `machine: ${cpus.length} cores (${cpus[0]?.model ?? '?'}), ${mb(os.totalmem())} RAM`,
    `node ${process.version} ${process.platform}/${process.arch}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other work skews figures)`,
  ].join('\n');
}

export function printTable(title: string, rows: Row[], notes: string[]): void {
  const head: Row = { figure: 'figure', value: 'value', target: 'target', verdict: '' };
  const w = (k: keyof Row) => Math.max(...[head, ...rows].map((r) => r[k].length));
  const [a, b, c] = [w('figure'), w('value'), w('target')];
  const line = (r: Row) =>
    `${r.figure.padEnd(a)} | ${r.value.padStart(b)} | ${r.target.padEnd(c)} | ${r.verdict || (r === head ? 'verdict' : 'info')}`;
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(`${'-'.repeat(a)}-+-${'-'.repeat(b)}-+-${'-'.repeat(c)}-+--------`);
  for (const r of rows) console.log(line(r));
  const failed = rows.filter((r) => r.verdict === 'FAIL').map((r) => r.figure);
  console.log(failed.length ? `\n*** FAIL: ${failed.join('; ')} ***` : '\nall targets met');
  for (const n of notes) console.log(`note: ${n}`);
}

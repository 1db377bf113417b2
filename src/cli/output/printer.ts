import { visibleJson } from '../../export/visible-text';
import { colorWanted, colors, clean, outputWidth, type Colors } from './style';
import { markdownTable, renderTable, type Column } from './table';

/**
 * The one output layer of every command, whichever source answered: `--json` prints one JSON
 * document, `--md` markdown, else text for a terminal (tables fit its width, colour on a TTY).
 */

export interface PrintOptions {
  json?: boolean;
  md?: boolean;
}

export type Field = readonly [label: string, value: string | number | null | undefined];

export class Printer {
  readonly json: boolean;
  readonly md: boolean;
  readonly c: Colors;
  readonly width: number;

  constructor(
    options: PrintOptions,
    private readonly out: NodeJS.WriteStream = process.stdout,
    env: NodeJS.ProcessEnv = process.env,
    private readonly err: NodeJS.WritableStream = process.stderr,
  ) {
    this.json = options.json === true;
    this.md = !this.json && options.md === true;
    this.c = colors(!this.json && !this.md && colorWanted(out, env));
    this.width = outputWidth(out, env);
  }

  write(text: string | Uint8Array): void {
    this.out.write(text);
  }

  /** A remark about the answer (a "12 of 40" footer): stderr, so a pipe gets only the rows. */
  note(text: string): void {
    this.err.write(`${clean(text)}\n`);
  }

  /** The whole answer as one JSON document (bidi and C1 characters as escapes: visible-text.ts). */
  value(value: unknown): void {
    this.write(`${visibleJson(JSON.stringify(value, null, 2))}\n`);
  }

  heading(text: string): void {
    this.write(this.md ? `\n## ${clean(text)}\n\n` : `\n${this.c.bold(clean(text))}\n`);
  }

  title(text: string): void {
    this.write(this.md ? `# ${clean(text)}\n\n` : `${this.c.bold(this.c.cyan(clean(text)))}\n`);
  }

  table(columns: readonly Column[], rows: readonly (readonly string[])[]): void {
    if (this.md) this.write(markdownTable(columns, rows));
    else this.write(renderTable(columns, rows, this.width, (t) => this.c.dim(t)));
  }

  /** Label and value pairs (absent values left out). */
  fields(fields: readonly Field[]): void {
    const shown = fields.filter(([, v]) => v !== null && v !== undefined && v !== '');
    if (this.md) {
      const rows = shown.map(([k, v]) => [k, String(v)]);
      this.write(markdownTable([{ header: 'field' }, { header: 'value' }], rows));
      return;
    }
    const w = shown.reduce((m, [k]) => Math.max(m, k.length), 0);
    for (const [k, v] of shown) this.write(`${this.c.dim(k.padEnd(w))}  ${clean(String(v))}\n`);
  }

  /** A block of text (content, output, a diff): fenced in markdown, indented-free as text. */
  block(text: string, lang = ''): void {
    if (this.md) {
      this.write(fenced(clean(text), lang));
      return;
    }
    this.write(clean(text));
    if (!text.endsWith('\n')) this.write('\n');
  }

  line(text = ''): void {
    this.write(`${clean(text)}\n`);
  }
}

/** A markdown code fence longer than any backtick run inside, so the text cannot close it. */
export function fenced(text: string, lang = ''): string {
  const longest = (text.match(/`+/g) ?? []).reduce((m, r) => Math.max(m, r.length), 2);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}\n`;
}

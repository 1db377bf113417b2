import { literalEnd } from './literal';

/**
 * JSON text parsed into where its tokens are, for masking raw bytes by structure (./escaped):
 * strings and numbers are kept as positions in the text, objects and arrays as their members.
 * Strict JSON (what JSON.parse accepts), so a line that parses here is the record the API
 * decodes; anything else answers null.
 */

/** A string literal [start, end), quotes included; `escaped` when it holds a backslash. */
export interface JsonString {
  t: 's';
  start: number;
  end: number;
  escaped: boolean;
}
export type JsonNode =
  | JsonString
  | { t: 'n'; start: number; end: number }
  | { t: 'o'; keys: JsonString[]; values: JsonNode[] }
  | { t: 'a'; items: JsonNode[] }
  | { t: 'l' };

/** Deepest nesting parsed (deeper text is left to the text detectors). */
const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const CONTROL = /[\x00-\x1f]/;
const WORDS = ['true', 'false', 'null'];

class Fail extends Error {}
const FAIL = new Fail();

class Parser {
  constructor(
    private readonly text: string,
    public pos: number,
    private readonly end: number,
  ) {}

  space(): void {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  value(depth: number): JsonNode {
    if (depth > MAX_DEPTH || this.pos >= this.end) throw FAIL;
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    for (const word of WORDS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { t: 'l' };
      }
    }
    NUMBER.lastIndex = this.pos;
    if (!NUMBER.test(this.text) || NUMBER.lastIndex > this.end) throw FAIL;
    const start = this.pos;
    this.pos = NUMBER.lastIndex;
    return { t: 'n', start, end: this.pos };
  }

  /** A literal's end found with indexOf (native); its escapes are checked when decoded. */
  string(): JsonString {
    const start = this.pos;
    const end = literalEnd(this.text, start, this.end);
    if (end < 0) throw FAIL;
    // A sliced string: no copy. Raw control characters (a line break) are not JSON.
    const body = this.text.slice(start + 1, end - 1);
    if (CONTROL.test(body)) throw FAIL;
    this.pos = end;
    return { t: 's', start, end, escaped: body.includes('\\') };
  }

  object(depth: number): JsonNode {
    this.pos++;
    const keys: JsonString[] = [];
    const values: JsonNode[] = [];
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return { t: 'o', keys, values };
    }
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.pos) !== 0x22) throw FAIL;
      keys.push(this.string());
      this.space();
      if (this.text.charCodeAt(this.pos++) !== 0x3a) throw FAIL;
      this.space();
      values.push(this.value(depth + 1));
      this.space();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return { t: 'o', keys, values };
      if (c !== 0x2c) throw FAIL;
    }
  }

  array(depth: number): JsonNode {
    this.pos++;
    const items: JsonNode[] = [];
    this.space();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { t: 'a', items };
    }
    for (;;) {
      this.space();
      items.push(this.value(depth + 1));
      this.space();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return { t: 'a', items };
      if (c !== 0x2c) throw FAIL;
    }
  }
}

/** The JSON value that is exactly text[from, to) (blanks around it allowed), or null. */
export function parseJson(text: string, from = 0, to = text.length): JsonNode | null {
  const p = new Parser(text, from, to);
  try {
    p.space();
    const node = p.value(0);
    p.space();
    return p.pos === to ? node : null;
  } catch (err) {
    if (err instanceof Fail) return null;
    throw err;
  }
}

/**
 * Brain text as shown to a person: by the command line on a terminal, and in markdown exports
 * (which people open in a pager or a renderer).
 *
 * C0/C1 controls and DEL (escape sequences included) must not drive a terminal: titles, screen
 * clears, OSC 52 clipboard writes. The bidirectional formatting characters (marks, embeddings,
 * overrides, isolates) make a terminal or a renderer show text in another order than it runs
 * ("Trojan Source", CVE-2021-42574), so a reviewer would read a command other than the one the
 * agent ran. Both are shown as U+FFFD; carriage returns are dropped (CRLF text reads as LF).
 * Zero-width characters stay: emoji sequences need the joiner, and they cannot reorder text.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => (c === '\r' ? '' : '\uFFFD'));
}

/** What JSON.stringify leaves raw of the same characters (C0 it escapes already), and U+2028/9. */
const HIDDEN_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * Serialized JSON with those characters as `\uXXXX` escapes: the same value for a parser, and
 * nothing a terminal or a viewer obeys. Outside strings JSON text is ASCII, so every match lies
 * inside a string, where an escape is always allowed.
 */
export function visibleJson(json: string): string {
  return json.replace(HIDDEN_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

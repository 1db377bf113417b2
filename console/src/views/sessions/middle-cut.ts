/**
 * Where a long model name is cut: the end kept whole is its last word when that word is a short
 * qualifier ("(Thinking)", "(High)", "Preview"), else its last 8 characters (names without
 * spaces differ at their end: "claude-sonnet-4-5-20250929"). Kept as a word, the qualifier reads
 * whole and the start gets the rest of the cell: "Gemini 3.5 F…(High)", not "Gemini …h (High)".
 * Characters are code points, so a cut never splits a surrogate pair.
 */
export function splitForCut(text: string): { head: string; tail: string } | null {
  const chars = [...text];
  if (chars.length <= 16) return null;
  const space = text.lastIndexOf(' ');
  const word = space > 0 ? [...text.slice(space + 1)] : [];
  const n = word.length >= 3 && word.length <= 12 ? word.length : 8;
  return { head: chars.slice(0, -n).join(''), tail: chars.slice(-n).join('') };
}

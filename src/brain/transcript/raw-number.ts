/**
 * The text of a top-level member's number as the line writes it. JSON.parse rounds a number
 * past 2^53 (9007199254740993 reads as 9007199254740992), so a message that names the number a
 * line holds takes its digits from here, not from the parsed value. Node 20's reviver has no
 * source text, hence this scan: strings skipped, nesting counted, the last member of that name
 * at the top level wins (as in JSON.parse). Null when the member is absent or not a number.
 */
export function topLevelNumberText(line: string, name: string): string | null {
  let depth = 0;
  let found: string | null = null;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === '"') {
      const start = i;
      for (i++; i < n && line[i] !== '"'; i++) if (line[i] === '\\') i++;
      i++;
      if (depth !== 1) continue;
      let j = i;
      while (j < n && /\s/.test(line[j])) j++;
      if (line[j] !== ':') continue;
      let key: unknown;
      try {
        key = JSON.parse(line.slice(start, i));
      } catch {
        continue;
      }
      if (key !== name) continue;
      for (j++; j < n && /\s/.test(line[j]); j++);
      const token = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(line.slice(j, j + 4096));
      found = token ? token[0] : null;
      i = j;
    } else {
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
    }
  }
  return found;
}

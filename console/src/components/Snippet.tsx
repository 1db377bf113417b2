import { shown } from './text';

/** A snippet with its highlighted ranges (UTF-16 offsets into the raw text) as `<mark>`. */
export function Snippet({
  text,
  ranges,
}: {
  text: string;
  ranges: readonly { start: number; length: number }[];
}) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [i, r] of [...ranges].sort((a, b) => a.start - b.start).entries()) {
    if (r.start < at) continue;
    parts.push(shown(text.slice(at, r.start)));
    parts.push(<mark key={i}>{shown(text.slice(r.start, r.start + r.length))}</mark>);
    at = r.start + r.length;
  }
  parts.push(shown(text.slice(at)));
  return <span className="snippet">{parts}</span>;
}

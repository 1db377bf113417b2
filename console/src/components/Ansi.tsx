import Anser from 'anser';
import { Highlighted } from './Highlighted';
import { withoutOsc } from './osc';

/**
 * Tool output with its ANSI colours as classes (never raw escapes): OSC sequences removed
 * (their link text kept), anser splits the SGR sequences out, and whatever else remains
 * (cursor moves) is shown as U+FFFD by `shown` (through Highlighted). The same for a command's
 * output and a generic tool's output in the timeline (#20 L7), search terms marked in both.
 */
export function Ansi({
  text,
  pattern = null,
  className = 'ansi',
}: {
  text: string;
  pattern?: RegExp | null;
  className?: string;
}) {
  const parts = Anser.ansiToJson(withoutOsc(text), { use_classes: true, remove_empty: true });
  return (
    <pre className={className} tabIndex={0}>
      {parts.map((p, i) => {
        const cls = [p.fg && `${p.fg}-fg`, p.bg && `${p.bg}-bg`, ...(p.decorations ?? [])].filter(
          Boolean,
        );
        return (
          <span key={i} className={cls.length ? cls.join(' ') : undefined}>
            <Highlighted text={p.content} pattern={pattern} />
          </span>
        );
      })}
    </pre>
  );
}

import Anser from 'anser';
import { shown } from './text';

/**
 * Command output with its ANSI colours as classes (never raw escapes): anser splits the SGR
 * sequences out, and whatever else remains (OSC, cursor moves) is shown as U+FFFD by `shown`.
 */
export function Ansi({ text }: { text: string }) {
  const parts = Anser.ansiToJson(text, { use_classes: true, remove_empty: true });
  return (
    <pre className="ansi" tabIndex={0}>
      {parts.map((p, i) => {
        const cls = [p.fg && `${p.fg}-fg`, p.bg && `${p.bg}-bg`, ...(p.decorations ?? [])].filter(
          Boolean,
        );
        return (
          <span key={i} className={cls.length ? cls.join(' ') : undefined}>
            {shown(p.content)}
          </span>
        );
      })}
    </pre>
  );
}

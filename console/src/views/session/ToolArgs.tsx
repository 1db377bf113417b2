import { Highlighted } from '../../components/Highlighted';
import { decodeCutString } from '../../components/cut-json';
import { shown } from '../../components/text';

/**
 * A tool call's arguments as a person reads them: each name, then its value, strings as text
 * with their line breaks (never JSON-escaped again, never HTML: through Highlighted, which
 * shows controls and bidi characters visibly), nested objects and lists the same way.
 * `cut`: the step's compact tool calls were truncated, so an argument may be a cut value's
 * JSON head, a string's decoded as far as it goes.
 */
export function ToolArgs(props: { args: unknown; cut: boolean; pattern: RegExp | null }) {
  const { args, cut, pattern } = props;
  const top =
    cut && args !== null && typeof args === 'object' && !Array.isArray(args)
      ? Object.fromEntries(
          Object.entries(args).map(([k, v]) => [
            k,
            typeof v === 'string' ? (decodeCutString(v) ?? v) : v,
          ]),
        )
      : args;
  return (
    <div className="args" tabIndex={0}>
      <ArgValue value={top} pattern={pattern} />
    </div>
  );
}

function ArgValue({ value, pattern }: { value: unknown; pattern: RegExp | null }) {
  if (typeof value === 'string') {
    return (
      <span className="arg-text">
        <Highlighted text={value} pattern={pattern} />
      </span>
    );
  }
  if (Array.isArray(value) && value.length > 0) {
    return (
      <ol className="arg-list">
        {(value as unknown[]).map((v, i) => (
          <li key={i}>
            <ArgValue value={v} pattern={pattern} />
          </li>
        ))}
      </ol>
    );
  }
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    return (
      <dl className="arg-map">
        {Object.entries(value as Record<string, unknown>).map(([name, v]) => (
          <div key={name}>
            <dt>{shown(name)}</dt>
            <dd>
              <ArgValue value={v} pattern={pattern} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  // Numbers, booleans, null, [] and {}: as JSON writes them.
  return <span className="arg-json">{shown(JSON.stringify(value) ?? String(value))}</span>;
}

import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ConsoleSessionsQuery } from '../../gql/graphql';
import { splitForCut } from './middle-cut';
import { oneLine, shortId, shown, when } from '../../components/text';

type Row = ConsoleSessionsQuery['sessions']['edges'][number]['node'];

const ROW_HEIGHT = 34;

/**
 * A real `<table>` (roles for screen readers) whose body holds only the rows in view plus a
 * few: spacer rows above and below keep the scroll height of all of them.
 */
export function SessionsTable(props: {
  rows: Row[];
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
}) {
  const { rows, hasMore, loading, loadMore } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const items = v.getVirtualItems();
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (hasMore && !loading && last >= rows.length - 30) loadMore();
  }, [hasMore, loading, last, rows.length, loadMore]);
  const top = items[0]?.start ?? 0;
  const bottom = v.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div className="table-scroll" ref={scroller} tabIndex={0} aria-label="Sessions table">
      <table className="sessions">
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">created</th>
            <th scope="col">environment</th>
            <th scope="col">model</th>
            <th scope="col">request</th>
            <th scope="col" className="num">
              steps
            </th>
            <th scope="col" className="num">
              tool calls
            </th>
            <th scope="col" className="num">
              errors
            </th>
            <th scope="col" className="num">
              failed commands
            </th>
            <th scope="col" className="num">
              secrets found
            </th>
            <th scope="col">last activity</th>
          </tr>
        </thead>
        <tbody>
          {top > 0 && <tr aria-hidden="true" className="spacer" style={{ height: top }} />}
          {items.map((item) => {
            const s = rows[item.index];
            return (
              <tr key={s.id} data-index={item.index} style={{ height: ROW_HEIGHT }}>
                <td>
                  {/* The whole id to hear and to hover: rows of one 8-character prefix are
                      otherwise links of the same name (review 6, L4). */}
                  <Link
                    to="/sessions/$id"
                    params={{ id: s.id }}
                    className="mono"
                    aria-label={s.id}
                    title={s.id}
                  >
                    {shortId(s.id)}
                  </Link>
                </td>
                <td className="nowrap">{when(s.createdAt)}</td>
                <td
                  className="clip"
                  title={`${s.root.environment.toLowerCase()} · ${shown(s.root.flavor)}`}
                >
                  {s.root.environment.toLowerCase()} · {shown(s.root.flavor)}
                </td>
                <td className="clip" title={shown(s.model)}>
                  <MiddleCut text={shown(s.model)} />
                </td>
                <td className="request" title={oneLine(s.userRequest, 1000)}>
                  {oneLine(s.userRequest, 160) || <span className="muted">(no request)</span>}
                </td>
                <td className="num">{s.stepCount}</td>
                <td className="num">{s.toolCallCount}</td>
                <td className={s.errorCount > 0 ? 'num bad' : 'num'}>{s.errorCount}</td>
                <IndexCount id={s.id} tab="commands" value={s.failedCommandCount} />
                <IndexCount id={s.id} tab="secrets" value={s.secretCount} />
                <td className="nowrap">{when(s.updatedAt)}</td>
              </tr>
            );
          })}
          {bottom > 0 && <tr aria-hidden="true" className="spacer" style={{ height: bottom }} />}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A count from the home index: red when above 0 and a link to the tab that lists them, a dash
 * (explained) until the index has read the session.
 */
function IndexCount(props: {
  id: string;
  tab: 'commands' | 'secrets';
  value: number | null | undefined;
}) {
  const { id, tab, value } = props;
  if (value === null || value === undefined) {
    return (
      <td className="num muted" title="not indexed yet">
        –
      </td>
    );
  }
  if (value === 0) return <td className="num">0</td>;
  return (
    <td className="num bad">
      <Link
        to="/sessions/$id"
        params={{ id }}
        search={{ tab }}
        aria-label={`${value} ${tab === 'commands' ? 'failed commands' : 'secrets'} of ${shortId(id)}`}
      >
        {value}
      </Link>
    </td>
  );
}

/**
 * A name cut in its middle when its cell is narrow: its start ends in an ellipsis, its end
 * (splitForCut: a short last word, or the last 8 characters) stays (model names differ at
 * their end: two "claude-sonnet-4-…" read alike on a phone, where no hover shows the title;
 * review 6 L5). The whole text is the cell's text.
 * The start may take the cell's width less the end's measured width: a guess in `ch` (a
 * digit's width) cut "Gemini 3.5 Flash (High)" to "Ge…h (High)" with room to spare at 1280 px,
 * so a name that fits is never cut.
 */
function MiddleCut({ text }: { text: string }) {
  const box = useRef<HTMLSpanElement>(null);
  const cut = splitForCut(text);
  useLayoutEffect(() => {
    const tail = box.current?.querySelector('.tail');
    if (tail) box.current?.style.setProperty('--tail', `${tail.getBoundingClientRect().width}px`);
  }, [text]);
  if (cut === null) return <>{text}</>;
  return (
    <span className="mid-cut" ref={box}>
      <span className="head">{cut.head}</span>
      <span className="tail">{cut.tail}</span>
    </span>
  );
}

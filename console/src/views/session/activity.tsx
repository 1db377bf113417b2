import { queryOptions, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type SyntheticEvent } from 'react';
import { gql } from '../../api/graphql';
import { Ansi } from '../../components/Ansi';
import { ChangeCounts } from '../../components/ChangeCounts';
import { ErrorNote } from '../../components/ErrorNote';
import { ExitBadge } from '../../components/ExitBadge';
import { ChangesQuery, CommandsQuery } from './list-queries';
import { NoOutput } from './NoOutput';

const Diff = lazy(() => import('../../components/Diff'));

/**
 * A session's commands and its file changes: one query each, shared by the Commands and
 * Changes tabs and the timeline's outcomes. A long session's are megabytes (output, diffs),
 * so they are asked for only when a tab shows them or an outcome is opened, never with the
 * session (issue 20: opening a session costs its header and first steps page).
 */
export const commandsQuery = (id: string) =>
  queryOptions({ queryKey: ['commands', id], queryFn: () => gql(CommandsQuery, { id }) });

export const changesQuery = (id: string) =>
  queryOptions({ queryKey: ['changes', id], queryFn: () => gql(ChangesQuery, { id }) });

/** The tools whose calls are Commands and FileChanges (the schema's Session.commands/fileChanges). */
const COMMAND_TOOLS: ReadonlySet<string> = new Set(['run_command']);
const CHANGE_TOOLS: ReadonlySet<string> = new Set([
  'write_to_file',
  'replace_file_content',
  'multi_replace_file_content',
]);

const callKey = (step: number, position: number): string => `${step}:${position}`;

/** A list by `step index:call position`, built once per answer (every outcome looks it up). */
const indexes = new WeakMap<object, Map<string, unknown>>();
function byCall<T extends { step: { index: number }; toolCallPosition: number }>(
  list: readonly T[],
): Map<string, T> {
  let m = indexes.get(list) as Map<string, T> | undefined;
  if (!m) {
    m = new Map(list.map((c) => [callKey(c.step.index, c.toolCallPosition), c]));
    indexes.set(list, m);
  }
  return m;
}

/** What a call's `<details>` needs: when it was first opened (null: never), and its toggle. */
function useOpened(): [number | null, (e: SyntheticEvent<HTMLDetailsElement>) => void] {
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const onToggle = (e: SyntheticEvent<HTMLDetailsElement>) => {
    if (e.currentTarget.open && openedAt === null) setOpenedAt(Date.now());
  };
  return [openedAt, onToggle];
}

/**
 * An answer that lacks the call, older than the outcome's opening (a call streamed in since the
 * list was asked for), is asked again, once.
 */
function useAskAgain(
  q: { dataUpdatedAt: number; isFetching: boolean; refetch: () => Promise<unknown> },
  openedAt: number | null,
  missing: boolean,
): void {
  const { dataUpdatedAt, isFetching, refetch } = q;
  useEffect(() => {
    if (openedAt !== null && missing && !isFetching && dataUpdatedAt < openedAt) void refetch();
  }, [openedAt, missing, isFetching, dataUpdatedAt, refetch]);
}

interface CallProps {
  sessionId: string;
  /** The id the route was opened with (a prefix is kept in step links). */
  routeId: string;
  /** The step holding the call, and the call's place among its calls. */
  step: number;
  position: number;
  tool: string;
}

/**
 * Under a tool call in the timeline: a run_command's exit code and output, a file change's
 * counts and diff. Closed, it asks nothing; its summary shows the exit code or the counts once
 * the session's list is here (opened, or from the tab).
 */
export function CallOutcome(props: CallProps) {
  if (COMMAND_TOOLS.has(props.tool)) return <CommandOutcome {...props} />;
  if (CHANGE_TOOLS.has(props.tool)) return <ChangeOutcome {...props} />;
  return null;
}

/**
 * A call's item of its session's list, asked for once the call's `<details>` is first opened
 * (then again, once, if an older answer lacks it): the list (undefined until answered), the
 * item, the query's state and the toggle handler.
 */
function useCallItem<D, T extends { step: { index: number }; toolCallPosition: number }>(
  options: UseQueryOptions<D, Error, D, string[]>,
  listOf: (data: D | undefined) => readonly T[] | undefined,
  { step, position }: CallProps,
) {
  const [openedAt, onToggle] = useOpened();
  const q = useQuery({ ...options, enabled: openedAt !== null });
  const list = listOf(q.data);
  const item: T | undefined = list && byCall(list).get(callKey(step, position));
  useAskAgain(q, openedAt, list !== undefined && !item);
  return { q, list, item, onToggle };
}

function CommandOutcome(props: CallProps) {
  const {
    q,
    list,
    item: command,
    onToggle,
  } = useCallItem(commandsQuery(props.sessionId), (d) => d?.session?.commands, props);
  return (
    <details className="outcome" onToggle={onToggle}>
      <summary>
        {command ? (
          <>
            exit <ExitBadge exitCode={command.exitCode} /> output
          </>
        ) : (
          'output'
        )}
      </summary>
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !list || (!command && q.isFetching) ? (
        <p className="muted">Loading…</p>
      ) : !command ? (
        <p className="muted">No command recorded for this call.</p>
      ) : command.output ? (
        <Ansi text={command.output} />
      ) : (
        <NoOutput id={props.sessionId} routeId={props.routeId} command={command} />
      )}
    </details>
  );
}

function ChangeOutcome(props: CallProps) {
  const {
    q,
    list,
    item: change,
    onToggle,
  } = useCallItem(changesQuery(props.sessionId), (d) => d?.session?.fileChanges, props);
  return (
    <details className="outcome" onToggle={onToggle}>
      <summary>
        {change ? (
          <>
            diff{' '}
            <ChangeCounts
              diff={change.diff}
              linesAdded={change.linesAdded}
              linesRemoved={change.linesRemoved}
            />
          </>
        ) : (
          'diff'
        )}
      </summary>
      {q.error ? (
        <ErrorNote error={q.error} />
      ) : !list || (!change && q.isFetching) ? (
        <p className="muted">Loading…</p>
      ) : !change ? (
        <p className="muted">No file change recorded for this call.</p>
      ) : (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Diff diff={change.diff} sideBySide={false} />
        </Suspense>
      )}
    </details>
  );
}

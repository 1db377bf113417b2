import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { gql } from '../../api/graphql';
import { Ansi } from '../../components/Ansi';
import type { ConsoleActivityQuery } from '../../gql/graphql';
import { ActivityQuery } from './queries';
import { ExitBadge } from '../../components/ExitBadge';

const Diff = lazy(() => import('../../components/Diff'));

type Session = NonNullable<ConsoleActivityQuery['session']>;
type Command = Session['commands'][number];
type Change = Session['fileChanges'][number];

/** What a tool call did, by `step index:call position`: its command or its file change. */
export interface Activity {
  commands: Map<string, Command>;
  changes: Map<string, Change>;
}

export const callKey = (step: number, position: number): string => `${step}:${position}`;

/** The session's commands and file changes, looked up by the call that made them. */
export function useActivity(id: string): Activity | undefined {
  const q = useQuery({ queryKey: ['activity', id], queryFn: () => gql(ActivityQuery, { id }) });
  return useMemo(() => {
    const s = q.data?.session;
    if (!s) return undefined;
    return {
      commands: new Map(s.commands.map((c) => [callKey(c.step.index, c.toolCallPosition), c])),
      changes: new Map(s.fileChanges.map((c) => [callKey(c.step.index, c.toolCallPosition), c])),
    };
  }, [q.data]);
}

/** Under a tool call in the timeline: the command's exit code and output, or the diff. */
export function CallOutcome({ command, change }: { command?: Command; change?: Change }) {
  if (command) {
    return (
      <details className="outcome">
        <summary>
          exit <ExitBadge exitCode={command.exitCode} /> output
        </summary>
        {command.output ? <Ansi text={command.output} /> : <p className="muted">no output</p>}
      </details>
    );
  }
  if (change) {
    return (
      <details className="outcome">
        <summary>
          diff <span className="added">+{change.linesAdded}</span>{' '}
          <span className="removed">−{change.linesRemoved}</span>
        </summary>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Diff diff={change.diff} sideBySide={false} />
        </Suspense>
      </details>
    );
  }
  return null;
}

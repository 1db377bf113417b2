import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Ansi } from '../../components/Ansi';
import { ErrorNote } from '../../components/ErrorNote';
import { StepLink } from '../../components/StepLink';
import { shown } from '../../components/text';
import { commandsQuery } from './activity';
import { NoOutput } from './NoOutput';
import { Toggle } from '../../components/Toggle';
import { commandFailed, ExitBadge } from '../../components/ExitBadge';

/** The commands with cwd, exit code (failed ones marked) and output; failed first on request. */
export function CommandsTab({ id, routeId }: { id: string; routeId: string }) {
  const q = useQuery(commandsQuery(id));
  const [failedFirst, setFailedFirst] = useState(false);
  if (q.error) return <ErrorNote error={q.error} />;
  if (!q.data?.session) return <p className="muted">Loading…</p>;
  const list = [...q.data.session.commands];
  if (failedFirst) list.sort((a, b) => Number(commandFailed(b)) - Number(commandFailed(a)));
  return (
    <div className="commands">
      <Toggle label="failed first" checked={failedFirst} onChange={setFailedFirst} />
      {list.length === 0 && <p>No command was run in this session.</p>}
      <ol className="plain">
        {list.map((c, i) => (
          <li key={i} className={commandFailed(c) ? 'command failed' : 'command'}>
            <div className="command-head">
              <ExitBadge exitCode={c.exitCode} />
              <code>{shown(c.commandLine)}</code>
              <span className="muted">{shown(c.cwd)}</span>
              {c.background && <span className="badge">background</span>}
              <StepLink id={routeId} index={c.step.index} />
            </div>
            {c.output ? (
              <Ansi text={c.output} />
            ) : (
              <NoOutput id={id} routeId={routeId} command={c} />
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { gql } from '../../api/graphql';
import { CopyLink } from '../../components/CopyLink';
import { shown, when } from '../../components/text';
import type { StepPartsFragment } from '../../gql/graphql';
import { CallOutcome, callKey, type Activity } from './activity';
import { FullStepQuery } from './queries';

const Markdown = lazy(() => import('../../components/Markdown'));

/** Markdown (sanitised) or the raw text: rendered markdown can hide what an auditor must see. */
function Prose({ text }: { text: string }) {
  const [raw, setRaw] = useState(false);
  return (
    <div className="prose">
      <button type="button" className="small" aria-pressed={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'formatted' : 'raw'}
      </button>
      {raw ? (
        <pre className="raw">{shown(text)}</pre>
      ) : (
        <Suspense fallback={<pre className="raw">{shown(text)}</pre>}>
          <Markdown text={text} />
        </Suspense>
      )}
    </div>
  );
}

/** One step: its request, answer, thinking, tool calls and error; the full tier on demand. */
export function StepView(props: {
  step: StepPartsFragment;
  sessionId: string;
  routeId: string;
  marked: boolean;
  activity?: Activity;
}) {
  const { step, sessionId, routeId, marked, activity } = props;
  const [json, setJson] = useState(false);
  const [wantFull, setWantFull] = useState(false);
  const full = useQuery({
    queryKey: ['full-step', sessionId, step.index],
    queryFn: () => gql(FullStepQuery, { id: sessionId, index: step.index }),
    enabled: wantFull,
  });
  const f = full.data?.session?.step;
  const content = f?.content ?? step.content;
  const thinking = f?.thinking ?? step.thinking;
  const calls = step.toolCalls.map((c, i) => ({ ...c, args: f?.toolCalls[i]?.args ?? c.args }));
  const cls = ['step', `status-${step.status.toLowerCase()}`, marked ? 'marked' : ''].join(' ');
  return (
    <article
      id={`step-${step.index}`}
      className={cls}
      tabIndex={-1}
      aria-label={`Step ${step.index}`}
    >
      <header>
        <Link
          to="/sessions/$id/steps/$index"
          params={{ id: routeId, index: String(step.index) }}
          className="mono"
        >
          #{step.index}
        </Link>
        <span className="type">{shown(step.type)}</span>
        <span className={`badge ${step.status === 'ERROR' ? 'bad' : ''}`}>
          {step.status.toLowerCase()}
        </span>
        <span className="muted">{when(step.createdAt)}</span>
        <span className="spacer" />
        {step.truncatedFields.length > 0 && !f && (
          <button type="button" className="small" onClick={() => setWantFull(true)}>
            {full.isFetching ? 'loading…' : `full ${step.truncatedFields.join(', ')}`}
          </button>
        )}
        <CopyLink path={`/sessions/${sessionId}/steps/${step.index}`} />
        <button type="button" className="small" aria-pressed={json} onClick={() => setJson(!json)}>
          JSON
        </button>
      </header>
      {step.userRequest && <pre className="request">{shown(step.userRequest)}</pre>}
      {thinking && (
        <details className="thinking">
          <summary>thinking</summary>
          <pre>{shown(thinking)}</pre>
        </details>
      )}
      {content &&
        !step.userRequest &&
        (step.type === 'PLANNER_RESPONSE' ? (
          <Prose text={content} />
        ) : (
          <pre className="raw">{shown(content)}</pre>
        ))}
      {calls.map((c, i) => (
        <div className="tool-call" key={i}>
          <div>
            <b className="mono">{shown(c.name)}</b> {shown(c.toolSummary)}{' '}
            {c.result && (
              <Link
                to="/sessions/$id/steps/$index"
                params={{ id: routeId, index: String(c.result.index) }}
              >
                answered by #{c.result.index}
              </Link>
            )}
          </div>
          <CallOutcome
            command={activity?.commands.get(callKey(step.index, c.position))}
            change={activity?.changes.get(callKey(step.index, c.position))}
          />
          <pre className="args" tabIndex={0}>
            {shown(JSON.stringify(c.args, null, 2))}
          </pre>
        </div>
      ))}
      {step.error && (
        <pre className="step-error" role="note">
          {shown(step.error)}
        </pre>
      )}
      {json && (
        <pre className="json" tabIndex={0}>
          {shown(JSON.stringify(step, null, 2))}
        </pre>
      )}
    </article>
  );
}

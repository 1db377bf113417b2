import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { gql } from '../../api/graphql';
import { CopyLink } from '../../components/CopyLink';
import { Ansi } from '../../components/Ansi';
import { Highlighted, holds, searchTerms, termsPattern } from '../../components/Highlighted';
import { shown, when } from '../../components/text';
import type { StepPartsFragment } from '../../gql/graphql';
import { CallOutcome } from './activity';
import { FullStepQuery } from './queries';
import { ToolArgs } from './ToolArgs';
import { centreInScrollers } from '../../components/centre';

const Markdown = lazy(() => import('../../components/Markdown'));

/**
 * Markdown (sanitised) or the raw text: rendered markdown can hide what an auditor must see.
 * With search terms to mark it opens raw, where they are marked as text.
 */
function Prose({ text, pattern }: { text: string; pattern: RegExp | null }) {
  const [raw, setRaw] = useState(holds(text, pattern));
  return (
    <div className="prose">
      <button type="button" className="small" aria-pressed={raw} onClick={() => setRaw(!raw)}>
        {raw ? 'formatted' : 'raw'}
      </button>
      {raw ? (
        <pre className="raw">
          <Highlighted text={text} pattern={pattern} />
        </pre>
      ) : (
        <Suspense fallback={<pre className="raw">{shown(text)}</pre>}>
          <Markdown text={text} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * One step: its request, answer, thinking, tool calls and error; the full tier on demand.
 * `highlight`: the search that opened it; its terms are marked, in the full tier (where the
 * search looked) when the step was cut.
 */
export function StepView(props: {
  step: StepPartsFragment;
  sessionId: string;
  routeId: string;
  marked: boolean;
  highlight?: string;
}) {
  const { step, sessionId, routeId, marked, highlight } = props;
  const pattern = useMemo(() => termsPattern(searchTerms(highlight)), [highlight]);
  const [json, setJson] = useState(false);
  const [wantFull, setWantFull] = useState(pattern !== null && step.truncatedFields.length > 0);
  const full = useQuery({
    queryKey: ['full-step', sessionId, step.index],
    queryFn: () => gql(FullStepQuery, { id: sessionId, index: step.index }),
    enabled: wantFull,
  });
  const f = full.data?.session?.step;
  const content = f?.content ?? step.content;
  const thinking = f?.thinking ?? step.thinking;
  const calls = step.toolCalls.map((c, i) => ({ ...c, args: f?.toolCalls[i]?.args ?? c.args }));
  // The compact arguments a cut left as the head of their JSON text (until the full tier is here).
  const argsCut = !f && step.truncatedFields.includes('tool_calls');
  const cls = ['step', `status-${step.status.toLowerCase()}`, marked ? 'marked' : ''].join(' ');
  const article = useRef<HTMLElement>(null);
  const waiting = wantFull && !f;
  useEffect(() => {
    // The first term in view once the text that holds it is there (a long step has it far down).
    const mark = pattern && !waiting ? article.current?.querySelector('mark') : null;
    if (mark) centreInScrollers(mark);
  }, [pattern, waiting]);
  return (
    <article
      ref={article}
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
      {step.userRequest && (
        <pre className="request">
          <Highlighted text={step.userRequest} pattern={pattern} />
        </pre>
      )}
      {thinking && (
        <details className="thinking" open={holds(thinking, pattern) || undefined}>
          <summary>thinking</summary>
          <pre>
            <Highlighted text={thinking} pattern={pattern} />
          </pre>
        </details>
      )}
      {content &&
        !step.userRequest &&
        (step.type === 'PLANNER_RESPONSE' ? (
          <Prose key={pattern && f ? 'full' : 'compact'} text={content} pattern={pattern} />
        ) : (
          // A tool's output as command output is shown: colours, not raw escapes (#20 L7).
          <Ansi text={content} pattern={pattern} className="raw ansi" />
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
            sessionId={sessionId}
            routeId={routeId}
            step={step.index}
            position={c.position}
            tool={c.name}
          />
          <ToolArgs args={c.args} cut={argsCut} pattern={pattern} />
        </div>
      ))}
      {step.error && (
        <pre className="step-error" role="note">
          <Highlighted text={step.error} pattern={pattern} />
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

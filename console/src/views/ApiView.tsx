import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { EXAMPLE_QUERIES, formattedExample } from '../../../src/web/example-queries';
import { gql } from '../api/graphql';
import { ErrorNote } from '../components/ErrorNote';
import { shown } from '../components/text';
import { graphql } from '../gql';

const RootsQuery = graphql(`
  query ConsoleRoots {
    roots {
      flavor
      environment
      sessionCount
      path
      isExample
    }
  }
`);

const LINKS: readonly [string, string][] = [
  ['/graphql', 'the GraphQL explorer (GraphiQL, served by this service)'],
  ['/api/docs', 'the REST API, documented (Swagger UI)'],
  ['/api/openapi.json', 'the OpenAPI document of the REST API'],
  ['/healthz', 'liveness'],
  ['/readyz', 'readiness: 200 once the roots have been scanned'],
  ['/metrics', 'Prometheus metrics'],
];

/** What the landing page used to say: the roots the key reads, where to go, example queries. */
export default function ApiView({
  focus,
  onFocused,
}: {
  /** Take the focus to the panel's heading when it comes (opened from its button). */
  focus: boolean;
  onFocused: () => void;
}) {
  const roots = useQuery({ queryKey: ['roots'], queryFn: () => gql(RootsQuery) });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus) return;
    heading.current?.focus();
    onFocused();
  }, [focus, onFocused]);
  return (
    <section className="api-view" id="api-view" aria-labelledby="api-title">
      <h2 id="api-title" tabIndex={-1} ref={heading}>
        The API
      </h2>
      <h3>Brain roots</h3>
      {roots.error && <ErrorNote error={roots.error} />}
      {roots.data && (
        <div className="scroll-x">
          <table className="roots">
            <thead>
              <tr>
                <th scope="col">flavor</th>
                <th scope="col">environment</th>
                <th scope="col" className="num">
                  sessions
                </th>
                <th scope="col">path</th>
              </tr>
            </thead>
            <tbody>
              {roots.data.roots.map((r) => (
                <tr key={r.path}>
                  <td>{shown(r.flavor)}</td>
                  <td>{r.environment}</td>
                  <td className="num">{r.sessionCount}</td>
                  <td className="mono">{shown(r.path)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {roots.data?.roots.some((r) => r.isExample) && (
        <p className="muted">
          No brain root was found in the configured home: this is the example home shipped with
          brainql.
        </p>
      )}
      <h3>Where to go</h3>
      <ul>
        {LINKS.map(([href, what]) => (
          <li key={href}>
            <a href={href}>
              <code>{href}</code>
            </a>
            : {what}
          </li>
        ))}
      </ul>
      <h3>Example queries</h3>
      <ul>
        {EXAMPLE_QUERIES.map((q, i) => (
          <li key={q.name}>
            <a href={`/graphql?query=${encodeURIComponent(formattedExample(q, i))}`}>{q.title}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

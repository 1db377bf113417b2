import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { FindingPlace, findingField } from '../../components/FindingPlace';
import { count, oneLine, shortId, shown, when } from '../../components/text';
import { graphql } from '../../gql';
import { FilterProblems } from '../sessions/FilterProblems';
import { useTitle } from '../title';
import { kindChoice, noneFound } from './kinds';

export function parseSecretsSearch(raw: Record<string, unknown>): { kind?: string } {
  return typeof raw.kind === 'string' && raw.kind.trim() ? { kind: raw.kind.trim() } : {};
}

const ExposuresQuery = graphql(`
  query ConsoleExposures($kinds: [String!]) {
    secretExposures(first: 100, kinds: $kinds) {
      totalCount
      edges {
        node {
          count
          kinds
          session {
            id
            createdAt
            userRequest
          }
          findings {
            kind
            field
            count
            artifact
            step {
              index
            }
          }
        }
      }
    }
  }
`);

/** `/secrets`: the sessions where secrets appeared (newest first), each finding linked. */
export function SecretsPage({ kind: asked }: { kind?: string }) {
  const navigate = useNavigate();
  useTitle('Secrets');
  const all = useQuery({
    queryKey: ['exposures', undefined],
    queryFn: () => gql(ExposuresQuery, {}),
  });
  const kinds = [
    ...new Set(all.data?.secretExposures.edges.flatMap((e) => e.node.kinds) ?? []),
  ].sort();
  // The URL's kind once the kinds are known, less the values no finding has (then, if none
  // is left: every kind).
  const choice = all.data ? kindChoice(asked, kinds) : { kind: undefined, problems: [] };
  const kind = choice.kind;
  const q = useQuery({
    queryKey: ['exposures', kind],
    queryFn: () => gql(ExposuresQuery, { kinds: kind ? [kind] : undefined }),
    enabled: !asked || !!all.data,
  });
  return (
    <section aria-labelledby="secrets-title">
      <h1 id="secrets-title">Secrets</h1>
      <label>
        Kind{' '}
        <select
          value={kind ?? ''}
          onChange={(e) =>
            void navigate({
              to: '/secrets',
              search: e.target.value ? { kind: e.target.value } : {},
            })
          }
        >
          <option value="">every kind</option>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {shown(k)}
            </option>
          ))}
        </select>
      </label>
      <FilterProblems problems={choice.problems} />
      {q.error && <ErrorNote error={q.error} />}
      {q.data && (
        <>
          <p className="muted" data-testid="exposures">
            {count(q.data.secretExposures.totalCount, 'session')}
          </p>
          {q.data.secretExposures.totalCount === 0 && <p>{noneFound(kind)}</p>}
          <ol className="plain exposures">
            {q.data.secretExposures.edges.map(({ node: x }) => (
              <li key={x.session.id} className="exposure">
                <h2>
                  <Link
                    to="/sessions/$id"
                    params={{ id: x.session.id }}
                    search={{ tab: 'secrets' }}
                    className="mono"
                    aria-label={x.session.id}
                    title={x.session.id}
                  >
                    {shortId(x.session.id)}
                  </Link>{' '}
                  {oneLine(x.session.userRequest, 120)}{' '}
                  <span className="muted">
                    {when(x.session.createdAt)} · {x.count} found
                  </span>
                </h2>
                <ul>
                  {x.findings.map((f, i) => (
                    <li key={i}>
                      <span className="badge warn">{shown(f.kind)}</span> ×{f.count} in{' '}
                      {findingField(f)}{' '}
                      <FindingPlace sessionId={x.session.id} step={f.step} artifact={f.artifact} />
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

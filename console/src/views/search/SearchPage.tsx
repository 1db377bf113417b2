import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { ApiError, gql } from '../../api/graphql';
import { ErrorNote } from '../../components/ErrorNote';
import { Snippet } from '../../components/Snippet';
import { count, oneLine, shortId, shown } from '../../components/text';
import { FilterProblems } from '../sessions/FilterProblems';
import { useTitle } from '../title';
import { searchOrder, sessionCandidates, sessionProblems, sessionRefused } from './search-notes';
import { graphql } from '../../gql';
import type { SearchField } from '../../gql/graphql';

export interface SearchSearch {
  q?: string;
  session?: string;
  fields?: string;
  /** As written: newest_first or relevance (any case) is used, another value is said. */
  order?: string;
}

export function parseSearchSearch(raw: Record<string, unknown>): SearchSearch {
  const out: SearchSearch = {};
  for (const k of ['q', 'session', 'fields', 'order'] as const) {
    const v = raw[k];
    if (typeof v === 'string' && v.trim()) out[k] = v.trim();
  }
  return out;
}

/** The contract's SearchField values, as the form offers them (none checked: all). */
const FIELDS: readonly [SearchField, string][] = [
  ['USER_REQUEST', 'requests'],
  ['CONTENT', 'answers'],
  ['THINKING', 'thinking'],
  ['TOOL_CALLS', 'tool calls'],
  ['OUTPUT', 'outputs'],
  ['ARTIFACT', 'artifacts'],
];

/**
 * The fields of `fields=` the query uses (any case) and a sentence for those it leaves out: the
 * API refuses an unknown one, and its raw refusal took the page's place (`fields=nope`).
 */
export function searchFields(value: string | undefined): {
  fields: SearchField[] | undefined;
  problems: string[];
} {
  const asked =
    value
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean) ?? [];
  const known = FIELDS.map(([f]) => f);
  const fields = asked
    .map((f) => f.toUpperCase())
    .filter((f): f is SearchField => (known as string[]).includes(f));
  const bad = asked.filter((f) => !(known as string[]).includes(f.toUpperCase()));
  const problems = bad.length
    ? [
        `fields=${shown(bad.join(','))} names no field (accepted: ${known.map((f) => f.toLowerCase()).join(', ')}, comma-separated); it is left out.`,
      ]
    : [];
  return { fields: fields.length ? fields : undefined, problems };
}

/** The URL of a submitted form: defaults (every field, relevance, any session) left out. */
function searchOf(form: FormData): SearchSearch {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v.trim() : '';
  };
  const out: SearchSearch = { q: text('q') };
  const fields = form.getAll('fields').filter((v): v is string => typeof v === 'string');
  if (fields.length > 0 && fields.length < FIELDS.length) out.fields = fields.join(',');
  if (text('session')) out.session = text('session');
  if (text('order') === 'newest_first') out.order = 'newest_first';
  return out;
}

const SessionMatch = graphql(`
  query ConsoleSearchSession($id: String!) {
    session(id: $id) {
      id
    }
  }
`);

const SearchQuery = graphql(`
  query ConsoleSearch($query: String!, $filter: SearchFilter, $order: SearchOrder) {
    indexStatus {
      state
      sessionsIndexed
      sessionsTotal
    }
    search(query: $query, first: 100, filter: $filter, order: $order) {
      totalCount
      edges {
        node {
          field
          artifact
          snippet
          highlights {
            start
            length
          }
          session {
            id
            userRequest
          }
          step {
            index
          }
        }
      }
    }
  }
`);

/** `/search?q=`: hits of the home index with their snippets, terms marked, each linked. */
export function SearchPage({ search }: { search: SearchSearch }) {
  const navigate = useNavigate();
  const q = search.q ?? '';
  useTitle(q ? `Search ${oneLine(q, 80)}` : 'Search');
  const { fields, problems: fieldProblems } = searchFields(search.fields);
  const { order, problems: orderProblems } = searchOrder(search.order);
  const match = useQuery({
    queryKey: ['search-session', search.session],
    queryFn: () => gql(SessionMatch, { id: search.session! }),
    enabled: q !== '' && !!search.session,
    retry: false,
  });
  const problems = [
    ...fieldProblems,
    ...orderProblems,
    ...sessionProblems(search.session, {
      found: match.data ? match.data.session !== null : undefined,
    }),
  ];
  const answer = useQuery({
    queryKey: ['search', search],
    queryFn: () =>
      gql(SearchQuery, {
        query: q,
        filter: { fields, session: search.session },
        order: order === 'newest_first' ? 'NEWEST_FIRST' : 'RELEVANCE',
      }),
    enabled: q !== '',
    // While the index builds, ask again: the page says how far it is.
    refetchInterval: (query) => (query.state.data?.indexStatus.state === 'BUILDING' ? 1000 : false),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void navigate({ to: '/search', search: searchOf(new FormData(e.currentTarget)) });
  };
  const status = answer.data?.indexStatus;
  const candidates = sessionCandidates(search.session, match.error ?? answer.error);
  const refused = sessionRefused(search.session, match.error ?? answer.error);
  // Said above as notices: an ambiguous prefix with the sessions it matches, a refused one.
  // Any other refused input (a 1-character term): its message said as a notice, without the
  // raw code (#20, review 7: `BAD_USER_INPUT: term 1 of "query" has 1 character; …`).
  const badInput =
    answer.error instanceof ApiError &&
    answer.error.code === 'BAD_USER_INPUT' &&
    sessionRefused(search.session, answer.error).length === 0
      ? [answer.error.message]
      : [];
  const said =
    answer.error instanceof ApiError &&
    (answer.error.code === 'AMBIGUOUS_SESSION_ID' ||
      badInput.length > 0 ||
      sessionRefused(search.session, answer.error).length > 0);
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search</h1>
      <form role="search" onSubmit={submit} key={JSON.stringify(search)} className="search-form">
        <label>
          Terms <input name="q" type="search" defaultValue={q} size={40} />
        </label>{' '}
        <button type="submit">Search</button>
        <fieldset className="fields">
          <legend>In</legend>
          {FIELDS.map(([f, label]) => (
            <label key={f}>
              <input
                type="checkbox"
                name="fields"
                value={f.toLowerCase()}
                defaultChecked={fields?.includes(f) ?? false}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <label>
          Session{' '}
          <input
            name="session"
            defaultValue={search.session ?? ''}
            size={12}
            placeholder="id or prefix"
            className="mono"
          />
        </label>{' '}
        <label>
          Order{' '}
          <select name="order" defaultValue={order}>
            <option value="relevance">relevance</option>
            <option value="newest_first">newest first</option>
          </select>
        </label>
      </form>
      <FilterProblems problems={[...problems, ...(candidates ? [] : refused), ...badInput]}>
        {candidates && (
          <p className="notice">
            session={shown(search.session)} matches several sessions; give more of the id:{' '}
            {candidates.shown.map((id, i) => (
              <span key={id}>
                {i > 0 && ', '}
                <Link to="/sessions/$id" params={{ id }} className="mono">
                  {id}
                </Link>
              </span>
            ))}
            {candidates.more > 0 ? `, and ${candidates.more} more.` : '.'}
          </p>
        )}
      </FilterProblems>
      {status?.state === 'BUILDING' && (
        <p role="status">
          The index is being built: {status.sessionsIndexed} of{' '}
          {count(status.sessionsTotal, 'session')} so far.
        </p>
      )}
      {answer.error && !said && <ErrorNote error={answer.error} />}
      {answer.data && (
        <>
          <p className="muted" data-testid="hits">
            {count(answer.data.search.totalCount, 'hit')}
          </p>
          <ol className="hits">
            {answer.data.search.edges.map(({ node: h }, i) => (
              <li key={i}>
                <div>
                  <Link to="/sessions/$id" params={{ id: h.session.id }} className="mono">
                    {shortId(h.session.id)}
                  </Link>{' '}
                  <span className="muted">{oneLine(h.session.userRequest, 80)}</span> ·{' '}
                  {h.step ? (
                    <Link
                      to="/sessions/$id/steps/$index"
                      params={{ id: h.session.id, index: String(h.step.index) }}
                      search={{ hl: q }}
                    >
                      step {h.step.index}
                    </Link>
                  ) : (
                    <Link
                      to="/sessions/$id"
                      params={{ id: h.session.id }}
                      search={{ tab: 'artifacts' }}
                    >
                      {oneLine(h.artifact)}
                    </Link>
                  )}{' '}
                  <span className="badge">{h.field.toLowerCase()}</span>
                </div>
                <Snippet text={h.snippet} ranges={h.highlights} />
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

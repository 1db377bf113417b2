import { Kind, parse, print, type DocumentNode, type NameNode } from 'graphql';

/**
 * README.md's "Ten queries to start with", as written there (a test compares them), with a
 * name for each so the explorer's tabs are told apart.
 */
export interface ExampleQuery {
  /** The operation name given to the query in the explorer. */
  name: string;
  title: string;
  /** The query exactly as the README's curl line sends it. */
  query: string;
  variables?: Record<string, unknown>;
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    name: 'NewestSessions',
    title: 'The newest sessions',
    query:
      '{ sessions(first: 5) { totalCount edges { node { id createdAt userRequest model stepCount toolCallCount errorCount root { flavor environment } } } pageInfo { hasNextPage endCursor } } }',
  },
  {
    name: 'StepsWithToolCalls',
    title: "One session's steps with their tool calls",
    query:
      '{ session(id: "ba5e") { id userRequest steps(first: 10) { edges { node { index type status createdAt truncatedFields toolCalls { name toolSummary args } } } } } }',
  },
  {
    name: 'TruncatedStepInFull',
    title: 'A truncated step in full and its output file',
    query:
      '{ session(id: "ba5e") { step(index: 4) { truncatedFields content(full: true) output { file size duplicatesContent text(offset: 0, length: 200) } } } }',
  },
  {
    name: 'Artifacts',
    title: 'Artifacts with their versions',
    query:
      '{ session(id: "ba5e") { artifacts { name kind summary updatedAt size versions { name size } } artifact(name: "task.md") { content } } }',
  },
  {
    name: 'Problems',
    title: 'Problems found in the files of the newest sessions',
    query: '{ sessions(first: 20) { edges { node { id problems { code message file line } } } } }',
  },
  {
    name: 'Commands',
    title: 'The commands of the sessions created since a date',
    query:
      'query($since: DateTime) { sessions(first: 50, filter: {createdAfter: $since}) { edges { node { id commands { step { createdAt } commandLine cwd exitCode background output taskLog } } } } }',
    variables: { since: '2026-01-01T00:00:00Z' },
  },
  {
    name: 'FileChanges',
    title: 'The files a run changed, with diffs',
    query:
      '{ session(id: "9e77") { fileChanges { path tool kind linesAdded linesRemoved complete status diff } } }',
  },
  {
    name: 'ToolCallResults',
    title: 'The step that answered each tool call',
    query:
      '{ session(id: "ba5e") { steps(first: 20, filter: {toolName: "run_command"}) { edges { node { index toolCalls { name args result { index type status content } } } } } } }',
  },
  {
    name: 'Search',
    title: 'Full-text search over every session',
    query:
      '{ indexStatus { state sessionsIndexed sessionsTotal } search(query: "supabase warning", first: 5, filter: {fields: [CONTENT, THINKING]}) { totalCount edges { node { session { id } field step { index type } snippet highlights { start length } } } } }',
  },
  {
    name: 'SecretExposures',
    title: 'The sessions where secrets appeared, and where',
    query:
      '{ secretExposures(first: 20) { totalCount edges { node { session { id userRequest } count kinds findings { kind field step { index } artifact count } } } } }',
  },
];

/** The query named and laid out on several lines, under a comment with its title. */
export function formattedExample(example: ExampleQuery, position: number): string {
  const doc = parse(example.query);
  const name: NameNode = { kind: Kind.NAME, value: example.name };
  const named: DocumentNode = {
    ...doc,
    definitions: doc.definitions.map((d) =>
      d.kind === Kind.OPERATION_DEFINITION ? { ...d, name } : d,
    ),
  };
  return `# ${position + 1}. ${example.title}\n${print(named)}\n`;
}

/**
 * The points of single fields in the cost model of cost.ts: the assumed sizes of lists that
 * have no `first`, and what fields that read more than the transcript cost on top of 1.
 */

export const READ_COST = 20;
export const PROBLEMS_COST = 100;
/** Points per session a `filter.query` listing examines. */
export const SESSION_SCAN_COST = 1;
export const DEFAULT_LIST_SIZE = 10;
const TEXT_CHUNK = 64 * 1024;

export const LIST_SIZE: Record<string, number> = {
  'Query.roots': 10,
  'Session.artifacts': 10,
  'Artifact.versions': 10,
  'Session.files': 50,
  'Session.problems': 20,
  'Step.toolCalls': 5,
  'Session.commands': 50,
  'Session.fileChanges': 20,
};

export type Args = Record<string, unknown>;

/** What the cost depends on beyond the query: the size of the home the caller sees. */
export interface HomeSize {
  /** Sessions the caller may see (a `filter.query` listing examines every one). */
  visibleSessions: number;
}

export const NO_HOME: HomeSize = { visibleSessions: 0 };

/** True for a field whose work grows with the home: a `sessions` listing with `filter.query`. */
export function readsWholeHome(coordinate: string, args: Args): boolean {
  if (coordinate !== 'Query.sessions') return false;
  const filter = args.filter as { query?: unknown } | null | undefined;
  return typeof filter?.query === 'string';
}

/** Points a field costs on top of 1, for what it reads. */
function extraCost(coordinate: string, args: Args, home: HomeSize): number {
  if (readsWholeHome(coordinate, args)) return SESSION_SCAN_COST * home.visibleSessions;
  switch (coordinate) {
    case 'Step.content':
    case 'Step.thinking':
    case 'Step.toolCalls':
      return args.full === true ? READ_COST : 0;
    case 'StepOutput.duplicatesContent':
    case 'Session.commands':
    case 'Session.fileChanges':
    case 'Artifact.content':
    case 'ArtifactVersion.content':
      return READ_COST;
    case 'StepOutput.text': {
      const length = typeof args.length === 'number' && args.length > 0 ? args.length : 1048576;
      return READ_COST + Math.ceil(length / TEXT_CHUNK);
    }
    case 'Session.problems':
      return PROBLEMS_COST;
    case 'Step.output':
      return 2;
    default:
      return 0;
  }
}

/** What one resolved field costs by itself (its list items and children count on their own). */
export function fieldOwnCost(
  parentType: string,
  field: string,
  args: Args,
  home: HomeSize = NO_HOME,
): number {
  return field === '__typename' ? 0 : 1 + extraCost(`${parentType}.${field}`, args, home);
}

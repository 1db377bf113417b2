/**
 * Documents only the command line asks (the others are the shared ones of
 * src/operations/documents.ts): index progress, and what `wait` follows.
 */

export const INDEX_STATUS = `
query CliIndexStatus { indexStatus { state sessionsIndexed sessionsTotal } }`;

/** `wait`, remote: every record from `fromPosition`, then each new one. */
export const WAIT_STEPS = `
subscription CliWaitSteps($id: String!, $from: Int!) {
  steps(sessionId: $id, fromPosition: $from) { position status createdAt }
}`;

/** `wait`, local or with --flavor: the session's last change and the records after a cursor. */
export const WAIT_POLL = `
query CliWaitPoll($id: String!, $flavor: String, $after: String) {
  session(id: $id, flavor: $flavor) {
    id updatedAt stepCount
    steps(first: 500, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { position status createdAt } }
    }
  }
}`;

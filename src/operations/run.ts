/**
 * Runs one fixed GraphQL document (src/operations/documents.ts) with its variables through the
 * real schema: resolves the response's `data`, rejects with an OperationError. REST, the
 * exporters and the CLI only ever ask for data this way, so every rule stays GraphQL's.
 */
export type RunOperation = <T>(document: string, variables?: Record<string, unknown>) => Promise<T>;

import type { ExportProblem, ExportSession, ExportStep } from './types';

/**
 * `{"session":{…},"steps":[…],"problems":[…]}` with the GraphQL field names, every step at the
 * full tier; written a step at a time, so a long session never becomes one string.
 */
export async function* jsonExport(
  session: ExportSession,
  steps: AsyncIterable<ExportStep>,
  problems: () => Promise<ExportProblem[]>,
): AsyncIterable<string> {
  yield `{"session":${JSON.stringify(session)},"steps":[`;
  let first = true;
  for await (const s of steps) {
    // Apart: a separator joined to a 32 MB step's JSON is a rope that the visible-text pass
    // flattens into one more copy of it, beside the ones LARGE_VALUES_MB counts.
    yield first ? '\n' : ',\n';
    yield JSON.stringify(s);
    first = false;
  }
  yield `\n],"problems":${JSON.stringify(await problems())}}\n`;
}

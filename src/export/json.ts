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
    yield (first ? '\n' : ',\n') + JSON.stringify(s);
    first = false;
  }
  yield `\n],"problems":${JSON.stringify(await problems())}}\n`;
}

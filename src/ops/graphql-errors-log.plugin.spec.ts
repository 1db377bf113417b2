import { GraphQLError } from 'graphql';
import { FileAccessError } from '../brain/files';
import { GraphqlErrorsLogPlugin } from './graphql-errors-log.plugin';

/** Each error of a response is logged once, at the level its cause deserves. */

async function logged(errors: GraphQLError[]) {
  const calls: [string, Record<string, unknown>, string][] = [];
  const log = {
    info: (o: Record<string, unknown>, m: string) => calls.push(['info', o, m]),
    warn: (o: Record<string, unknown>, m: string) => calls.push(['warn', o, m]),
    error: (o: Record<string, unknown>, m: string) => calls.push(['error', o, m]),
  };
  const listener = await new GraphqlErrorsLogPlugin().requestDidStart();
  await listener.didEncounterErrors!({
    errors,
    contextValue: { req: { log } },
    operationName: 'Q',
  } as never);
  return calls;
}

describe('GraphqlErrorsLogPlugin', () => {
  it('logs a client mistake at info, a refused brain file at warn, a bug at error', async () => {
    const bad = new GraphQLError('"first" must be an integer from 1 to 100', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const refused = new GraphQLError('x', {
      path: ['session', 'artifact', 'content'],
      originalError: new FileAccessError('UNSAFE_PATH', 'plan.md resolves outside the session'),
    });
    const bug = new GraphQLError('y', { originalError: new TypeError('boom') });
    const calls = await logged([bad, refused, bug]);
    expect(calls.map(([level, o, m]) => [level, o.code ?? o.refusal ?? null, m])).toEqual([
      ['info', 'BAD_USER_INPUT', 'client error: "first" must be an integer from 1 to 100'],
      ['warn', 'UNSAFE_PATH', 'file refused: plan.md resolves outside the session'],
      ['error', null, 'internal error'],
    ]);
    expect(calls[2][1].err).toBeInstanceOf(TypeError);
  });
});

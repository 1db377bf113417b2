import { isObjectType, type GraphQLSchema } from 'graphql';
import { policyOf } from './field-policy';
import { runningSchema } from './print-schema';

/**
 * The policies the running schema carries, field by field: what the cost model, the byte cap
 * and redaction read. A field added without the policy it needs changes this table on purpose.
 */

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await runningSchema();
});

function declared(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const p = policyOf(field);
      if (Object.keys(p).length === 0) continue;
      const parts: string[] = [];
      if (p.cost !== undefined) parts.push(`cost=${typeof p.cost === 'number' ? p.cost : 'fn'}`);
      if (p.readsHome) parts.push('readsHome');
      if (p.listSize !== undefined) parts.push(`list=${p.listSize}`);
      if (p.maxFirst !== undefined) parts.push(`maxFirst=${p.maxFirst}`);
      if (p.minBytes) parts.push('minBytes');
      if (p.redaction) parts.push(`redaction=${p.redaction}`);
      out[`${type.name}.${field.name}`] = parts.join(' ');
    }
  }
  return out;
}

describe('field policies in the running schema', () => {
  it('are declared where the fields are, and reach the schema', () => {
    expect(declared()).toEqual({
      'Artifact.content': 'cost=20 minBytes',
      'Artifact.versions': 'list=10',
      'ArtifactVersion.content': 'cost=20 minBytes',
      'FileChange.diff': 'redaction=diff',
      'PageInfo.endCursor': 'redaction=none',
      'Query.indexStatus': 'cost=fn readsHome',
      'Query.roots': 'list=10',
      'Query.search': 'cost=fn readsHome maxFirst=100',
      'Query.secretExposures': 'cost=fn readsHome maxFirst=100',
      'Query.sessions': 'cost=fn readsHome maxFirst=100',
      'Query.stats': 'cost=fn readsHome',
      'Session.artifacts': 'list=10',
      'Session.commands': 'cost=20 list=50',
      'Session.failedCommandCount': 'cost=2',
      'Session.fileChanges': 'cost=20 list=20',
      'Session.files': 'list=50',
      'Session.problems': 'cost=100 list=20',
      'Session.secretCount': 'cost=2',
      'Session.secrets': 'cost=2 list=20',
      'Session.steps': 'maxFirst=500',
      'SearchHitEdge.cursor': 'redaction=none',
      'SecretExposureEdge.cursor': 'redaction=none',
      'SessionEdge.cursor': 'redaction=none',
      'Stats.timeline': 'list=100',
      'Step.content': 'cost=fn',
      'Step.output': 'cost=2',
      'Step.thinking': 'cost=fn',
      'Step.toolCalls': 'cost=fn list=5',
      'StepEdge.cursor': 'redaction=none',
      'StepOutput.duplicatesContent': 'cost=20',
      'StepOutput.text': 'cost=fn minBytes redaction=service',
    });
  });

  it('cost full-tier reads only when asked with full: true, and output slices by length', () => {
    const step = schema.getType('Step');
    const output = schema.getType('StepOutput');
    if (!isObjectType(step) || !isObjectType(output)) throw new Error('no Step type');
    const content = policyOf(step.getFields().content).cost as (a: object) => number;
    const text = policyOf(output.getFields().text).cost as (a: object) => number;
    expect([content({}), content({ full: false }), content({ full: true })]).toEqual([0, 0, 20]);
    expect([text({}), text({ length: 1 }), text({ length: 65537 })]).toEqual([36, 21, 22]);
  });

  it('cost search, exposures and indexStatus per visible session, filters on summaries again', () => {
    const query = schema.getQueryType()!.getFields();
    const home = { visibleSessions: 50 };
    const cost = (field: string, args: object) =>
      (policyOf(query[field]).cost as (a: object, h: typeof home) => number)(args, home);
    expect([cost('search', {}), cost('search', { filter: { sessions: { query: 'x' } } })]).toEqual([
      50, 100,
    ]);
    expect(cost('search', { filter: { session: 'abcd', fields: ['CONTENT'] } })).toBe(50);
    expect([
      cost('secretExposures', {}),
      cost('secretExposures', { filter: { model: ['m'] } }),
    ]).toEqual([50, 100]);
    expect(cost('secretExposures', { filter: { model: [] }, kinds: ['jwt'] })).toBe(50);
    expect(cost('indexStatus', {})).toBe(50);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import * as documents from '../../src/operations/documents';

/** Every fixed document is valid against the committed schema and names its one operation. */
const schema = buildSchema(fs.readFileSync(path.join(__dirname, '../../schema.gql'), 'utf8'));

describe('operation documents', () => {
  const all = Object.entries(documents);

  it('are the ones the routes and commands use', () => {
    expect(all.map(([name]) => name).sort()).toEqual([
      'ARTIFACT',
      'ARTIFACTS',
      'COMMANDS',
      'EXPORT_SESSION',
      'EXPORT_STEPS',
      'FILE_CHANGES',
      'PROBLEMS',
      'SEARCH',
      'SECRETS',
      'SESSION',
      'SESSIONS',
      'SESSION_SUMMARY',
      'STATS',
      'STEP',
      'STEPS',
      'TOOLS',
    ]);
  });

  it.each(all)('%s validates against schema.gql', (_name, text) => {
    const doc = parse(text);
    expect(validate(schema, doc).map((e) => e.message)).toEqual([]);
    const ops = doc.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    expect(ops).toHaveLength(1);
    expect(ops[0].name?.value).toMatch(/^[A-Z][A-Za-z]+$/);
  });
});

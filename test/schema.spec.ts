import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { printRunningSchema } from '../src/graphql/print-schema';

describe('schema.gql', () => {
  it('is exactly what the running code builds (run `npm run schema` after changing the API)', async () => {
    const committed = readFileSync(path.join(__dirname, '..', 'schema.gql'), 'utf8');
    expect(await printRunningSchema()).toBe(committed);
  });
});

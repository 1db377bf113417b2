import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { EXAMPLE_QUERIES, formattedExample } from '../../src/web/example-queries';
import { startAppOver } from '../e2e/harness';
import type { INestApplication } from '@nestjs/common';
import { BrainStore } from '../../src/brain/store';

/**
 * The explorer's tabs and the console's API view's examples are README.md's "Ten queries to start
 * with", as written there, and each runs without an error on the example home.
 */

const ROOT = path.join(__dirname, '..', '..');

function readmeQueries(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Ten queries to start with');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/"query":"((?:[^"\\]|\\.)*)"/g)].map(
    (m) => JSON.parse(`"${m[1]}"`) as string,
  );
}

describe('the example queries', () => {
  it("are the README's ten, in its order, as written", () => {
    const readme = readmeQueries();
    expect(readme).toHaveLength(10);
    expect(EXAMPLE_QUERIES.map((q) => q.query)).toEqual(readme);
  });

  it('are named and laid out for the explorer under their number and title', () => {
    expect(formattedExample(EXAMPLE_QUERIES[6], 6)).toBe(
      [
        '# 7. The files a run changed, with diffs',
        'query FileChanges {',
        '  session(id: "9e77") {',
        '    fileChanges {',
        '      path',
        '      tool',
        '      kind',
        '      linesAdded',
        '      linesRemoved',
        '      complete',
        '      status',
        '      diff',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  describe('on the example home', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await startAppOver(path.join(ROOT, 'example-home'), { REDACT: 'on' });
      await app.get(BrainStore).refresh();
    });
    afterAll(async () => {
      await app?.close();
    });

    it('each runs as the explorer sends it, without an error and with data', async () => {
      for (const [i, q] of EXAMPLE_QUERIES.entries()) {
        const res = await request(app.getHttpServer())
          .post('/graphql')
          .set('Content-Type', 'application/json')
          .send({ query: formattedExample(q, i), variables: q.variables });
        expect([q.name, res.status, res.body.errors]).toEqual([q.name, 200, undefined]);
        expect(Object.values(res.body.data as object).every((v) => v !== null)).toBe(true);
      }
    });
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv from 'ajv';
import type { Data } from '../e2e/harness';
import { IDS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document listing every /api route with its
 * parameters, whose response schemas (derived from the GraphQL documents) hold the real answers.
 */
const r = useRest();
let doc: Data;

beforeAll(async () => {
  const res = await r.get('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

describe('/api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect([result.valid, result.errors ?? []]).toEqual([true, []]);
  });

  it('lists every /api route, the file route included, and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/openapi.json',
      '/api/search',
      '/api/sessions',
      '/api/sessions/{id}',
      '/api/sessions/{id}/commands',
      '/api/sessions/{id}/export',
      '/api/sessions/{id}/file-changes',
      '/api/sessions/{id}/files/{path}',
      '/api/sessions/{id}/lines/{line}',
      '/api/sessions/{id}/problems',
      '/api/sessions/{id}/secrets',
      '/api/sessions/{id}/steps',
      '/api/sessions/{id}/steps/{index}',
      '/api/sessions/{id}/steps/{index}/raw',
      '/api/stats',
    ]);
    const names = (p: string) => doc.paths[p].get.parameters.map((x: Data) => x.name).sort();
    expect(names('/api/sessions')).toEqual([
      'after',
      'createdAfter',
      'createdBefore',
      'environment',
      'first',
      'flavor',
      'hasErrors',
      'hourOfWeek',
      'model',
      'order',
      'q',
      'source',
      'tool',
      'updatedAfter',
    ]);
    expect(names('/api/sessions/{id}/steps')).toEqual([
      'after',
      'first',
      'flavor',
      'full',
      'id',
      'source',
      'status',
      'tool',
      'type',
    ]);
    expect(names('/api/sessions/{id}/export')).toEqual(['format', 'id']);
    for (const route of [
      '',
      '/steps/{index}',
      '/commands',
      '/file-changes',
      '/problems',
      '/secrets',
      '/steps/{index}/raw',
      '/lines/{line}',
    ]) {
      expect([route, names(`/api/sessions/{id}${route}`).includes('flavor')]).toEqual([
        route,
        true,
      ]);
    }
    expect(names('/api/sessions/{id}/files/{path}')).toEqual(['flavor', 'id', 'path']);
    expect(Object.keys(doc.paths['/api/sessions/{id}'].get.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '429',
    ]);
  });

  it('its response schemas hold the real answers', async () => {
    const ajv = new Ajv({ strict: false, validateFormats: false, allowUnionTypes: true });
    ajv.addSchema(doc, 'openapi');
    const check = async (path: string, route: string) => {
      const schema = doc.paths[route].get.responses['200'].content['application/json'].schema;
      const validate = ajv.compile({
        $ref: 'openapi#' + pointer(route),
        ...{},
        ...(schema.$ref ? {} : {}),
      });
      const body = (await r.get(path)).body;
      expect([validate(body), validate.errors ?? []]).toEqual([true, []]);
    };
    await check('/api/sessions?first=3', '/api/sessions');
    await check(`/api/sessions/${IDS.acp}`, '/api/sessions/{id}');
    await check(`/api/sessions/${IDS.ide}/steps?full=true`, '/api/sessions/{id}/steps');
    await check(`/api/sessions/${IDS.ide}/steps/1`, '/api/sessions/{id}/steps/{index}');
    await check(`/api/sessions/${IDS.ide}/commands`, '/api/sessions/{id}/commands');
    await check(`/api/sessions/${IDS.acp}/secrets`, '/api/sessions/{id}/secrets');
    await check('/api/search?q=zebrafish', '/api/search');
    await check('/api/stats', '/api/stats');
  });
});

/** The JSON pointer of a route's 200 JSON schema inside the document. */
function pointer(route: string): string {
  const path = route.replace(/~/g, '~0').replace(/\//g, '~1');
  return `/paths/${path}/get/responses/200/content/application~1json/schema`;
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { AssetSource } from './assets';
import { contentSecurityPolicy } from './html';

/**
 * Swagger UI for /api/openapi.json, from swagger-ui-dist (installed with @nestjs/swagger)
 * rather than a CDN. The base layout only: the standalone layout's URL bar would let the page
 * fetch any document. No validator badge (it is an image from validator.swagger.io).
 */

function distFile(name: string): () => Buffer {
  return () => {
    const dir = path.dirname(createRequire(__filename).resolve('swagger-ui-dist/package.json'));
    return readFileSync(path.join(dir, name));
  };
}

const SWAGGER_START_JS = `'use strict';
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** Served under /api/docs/. */
export const SWAGGER_ASSETS: Readonly<Record<string, AssetSource>> = {
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', load: distFile('swagger-ui.css') },
  'swagger-ui-bundle.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: distFile('swagger-ui-bundle.js'),
  },
  'swagger-start.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: () => SWAGGER_START_JS,
  },
};

/** Swagger UI styles some elements inline and draws icons as data: images. */
export const SWAGGER_CSP = contentSecurityPolicy({ 'style-src': "'self' 'unsafe-inline'" });

export const SWAGGER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>brainql: REST API</title>
<link rel="icon" href="/ui/favicon.svg">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="stylesheet" href="/ui/page.css">
</head>
<body>
<header class="bar"><a href="/">brainql</a> <span>REST API (<a href="/api/openapi.json">OpenAPI document</a>)</span></header>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-start.js"></script>
</body>
</html>
`;

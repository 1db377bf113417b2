import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { AppConfig } from '../config/config';
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

/**
 * Loads the document at once, or, when the page has the key form (API keys are configured:
 * the document needs one), once a key is entered. The key is sent with the document's request
 * and every "Try it out" that has no Authorization of its own; it is kept in memory only.
 */
const SWAGGER_START_JS = `'use strict';
(function () {
  var key = null;
  function start() {
    window.ui = SwaggerUIBundle({
      url: '/api/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
      requestInterceptor: function (req) {
        if (key && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + key;
        return req;
      },
    });
  }
  var form = document.getElementById('docs-key');
  if (!form) {
    start();
    return;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    key = form.elements.key.value.trim();
    start();
  });
})();
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

/** A key form when keys are configured: the document is behind authentication like /api. */
const KEY_FORM = `<form id="docs-key" class="note">
<label>This server needs an API key to show its REST API: <input name="key" type="password" autocomplete="off" size="40" placeholder="API key"></label>
<button type="submit">Load</button> (kept in this page only)
</form>`;

export function swaggerHtml(config: AppConfig): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/ui/favicon.svg">
<title>brainql: REST API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="stylesheet" href="/ui/page.css">
</head>
<body>
<header class="bar"><a href="/">brainql</a> <span>REST API (<a href="/api/openapi.json">OpenAPI document</a>)</span></header>
${config.apiKeys.length > 0 ? KEY_FORM : ''}
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-start.js"></script>
</body>
</html>
`;
}

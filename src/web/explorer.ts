import type { NextFunction, Request, Response } from 'express';
import { createRequire } from 'node:module';
import type { AppConfig } from '../config/config';
import type { AssetSource } from './assets';
import { EXAMPLE_QUERIES, formattedExample } from './example-queries';
import { EXPLORER_ENV_JS, EXPLORER_START_JS } from './explorer-client';
import { EXPLORER_FETCHER_JS } from './explorer-fetcher';
import { contentSecurityPolicy, etagOf, jsonForScript, PAGE_HEADERS } from './html';

/** What @graphql-yoga/render-graphiql's bundle module exports: whole files as strings. */
interface GraphiqlBundle {
  js: string;
  css: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

// Loaded on first use only: megabytes of JavaScript the API itself never needs.
let bundle: GraphiqlBundle | undefined;
function graphiql(): GraphiqlBundle {
  bundle ??= createRequire(__filename)('@graphql-yoga/render-graphiql/graphiql') as GraphiqlBundle;
  return bundle;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The explorer's files, served under /ui/ from this origin. */
export const EXPLORER_ASSETS: Readonly<Record<string, AssetSource>> = {
  'graphiql.js': { contentType: JS, load: () => graphiql().js },
  'graphiql.css': { contentType: CSS, load: () => graphiql().css },
  'graphiql-editor.worker.js': { contentType: JS, load: () => graphiql().editorWorkerService },
  'graphiql-json.worker.js': { contentType: JS, load: () => graphiql().jsonWorker },
  'graphiql-graphql.worker.js': { contentType: JS, load: () => graphiql().graphqlWorker },
  'explorer-env.js': { contentType: JS, load: () => EXPLORER_ENV_JS },
  'explorer-fetcher.js': { contentType: JS, load: () => EXPLORER_FETCHER_JS },
  'explorer.js': { contentType: JS, load: () => EXPLORER_START_JS },
};

/**
 * GraphiQL's editor (Monaco) sets inline styles and injects style elements, its fonts are
 * data: URLs and its workers are module scripts from /ui/.
 */
export const EXPLORER_CSP = contentSecurityPolicy({
  'style-src': "'self' 'unsafe-inline'",
  'font-src': 'data:',
  'worker-src': "'self'",
});

/** The Authorization header the editor starts with when keys are configured. */
export const HEADER_HINT = '{\n  "Authorization": "Bearer <paste your API key here>"\n}';

/** GraphiQL's settings: the ten README queries as tabs, the header editor open with keys. */
export function explorerSettings(config: AppConfig): Record<string, unknown> {
  const keys = config.apiKeys.length > 0;
  return {
    title: 'brainql',
    logo: '',
    defaultTabs: EXAMPLE_QUERIES.map((q, i) => ({
      query: formattedExample(q, i),
      variables: q.variables ? JSON.stringify(q.variables, null, 2) : undefined,
      headers: keys ? HEADER_HINT : undefined,
    })),
    headers: keys ? HEADER_HINT : undefined,
    // The key stays in this tab's memory unless the user turns persisting on in the settings.
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: keys ? 'headers' : 'variables',
  };
}

/** Notes above the editor: how to authenticate, and what is missing without introspection. */
function notes(config: AppConfig): string[] {
  const out: string[] = [];
  if (config.apiKeys.length > 0) {
    out.push(
      'This server needs an API key: put it in the <b>Headers</b> tab below as ' +
        '<code>{"Authorization": "Bearer &lt;key&gt;"}</code>. It is kept in this tab only.',
    );
  }
  if (!config.introspection) {
    out.push(
      'Schema introspection is off on this server (<code>INTROSPECTION=false</code>): the ' +
        'explorer has no documentation, completion or validation. Queries still run; the ' +
        'schema is <code>schema.gql</code> in the repository.',
    );
  }
  return out;
}

export function explorerHtml(config: AppConfig): string {
  const noteHtml = notes(config)
    .map((n) => `<p class="note" role="note">${n}</p>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>brainql: GraphQL explorer</title>
<link rel="icon" href="/ui/favicon.svg">
<link rel="stylesheet" href="/ui/graphiql.css">
<link rel="stylesheet" href="/ui/page.css">
</head>
<body class="explorer">
<header class="bar"><a href="/">brainql</a> <span>GraphQL explorer</span></header>
${noteHtml}
<noscript><p class="note">The explorer needs JavaScript. Without it, POST queries to /graphql (see the README).</p></noscript>
<div id="root"></div>
<script type="application/json" id="explorer-settings">${jsonForScript(explorerSettings(config))}</script>
<script src="/ui/explorer-env.js"></script>
<script src="/ui/graphiql.js"></script>
<script src="/ui/explorer-fetcher.js"></script>
<script src="/ui/explorer.js"></script>
</body>
</html>
`;
}

/**
 * Browser GETs of /graphql (preferring text/html, as Apollo decides for its landing page) get
 * the explorer; every other request goes on to Apollo, whose CSRF prevention is unchanged.
 */
export function explorerMiddleware(config: AppConfig) {
  const html = explorerHtml(config);
  const etag = etagOf(html);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      req.path !== '/graphql' ||
      req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) !==
        'text/html'
    ) {
      next();
      return;
    }
    res.locals.webPage = true;
    for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Security-Policy', EXPLORER_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    res.vary('Accept');
    res.type('html').send(html);
  };
}

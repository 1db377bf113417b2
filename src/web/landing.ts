import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import type { AppConfig } from '../config/config';
import type { BrainRoot } from '../sessions/session.model';
import { formattedExample, LANDING_EXAMPLES, EXAMPLE_QUERIES } from './example-queries';
import { contentSecurityPolicy, escapeHtml, PAGE_HEADERS } from './html';

/** No script at all on this page. */
export const LANDING_CSP = contentSecurityPolicy({ 'script-src': "'none'" });

/** What the landing page shows about the caller: the roots it may read, or why none. */
export type Visible = { roots: BrainRoot[] } | { authProblem: string };

const LINKS: readonly [string, string][] = [
  ['/graphql', 'the GraphQL explorer (GraphiQL, served by this service: nothing from elsewhere)'],
  ['/api/docs', 'the REST API, documented (Swagger UI)'],
  ['/api/openapi.json', 'the OpenAPI document of the REST API'],
  ['/healthz', 'liveness'],
  ['/readyz', 'readiness: 200 once the roots have been scanned'],
  ['/metrics', 'Prometheus metrics'],
];

function rootsHtml(visible: Visible, config: AppConfig): string {
  if ('authProblem' in visible) {
    return `<p>This server needs an API key (${escapeHtml(visible.authProblem)}). The roots it
serves are listed for a valid key: send <code>Authorization: Bearer &lt;key&gt;</code> (in the
explorer, in its Headers tab).</p>`;
  }
  if (visible.roots.length === 0) return '<p>Your key may read no brain root.</p>';
  const rows = visible.roots
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.flavor)}</td><td>${escapeHtml(r.environment)}</td>` +
        `<td class="num">${r.sessionCount}</td><td><code>${escapeHtml(r.path)}</code></td></tr>`,
    )
    .join('\n');
  const example = visible.roots.some((r) => r.isExample)
    ? '<p class="muted">No brain root was found in the configured home: this is the example home shipped with brainql.</p>'
    : '';
  const scope =
    config.apiKeys.length > 0
      ? 'The brain roots your key may read:'
      : 'The brain roots served (no API keys are configured: everyone who reaches this port reads them):';
  return `<p>${scope}</p>
<table><thead><tr><th>flavor</th><th>environment</th><th>sessions</th><th>path</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${example}`;
}

function examplesHtml(): string {
  return LANDING_EXAMPLES.map((q) => {
    const text = formattedExample(q, EXAMPLE_QUERIES.indexOf(q));
    const href = `/graphql?query=${encodeURIComponent(text)}`;
    return `<h3>${escapeHtml(q.title)}</h3>
<pre><code>${escapeHtml(text)}</code></pre>
<p><a href="${escapeHtml(href)}">Open in the explorer</a></p>`;
  }).join('\n');
}

export function landingHtml(visible: Visible, config: AppConfig): string {
  const links = LINKS.map(
    ([href, what]) => `<li><a href="${href}"><code>${href}</code></a>: ${escapeHtml(what)}</li>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>brainql</title>
<link rel="icon" href="/ui/favicon.svg">
<link rel="stylesheet" href="/ui/page.css">
</head>
<body>
<header class="bar"><a href="/">brainql</a> <span>a read-only GraphQL API over Antigravity brain directories</span></header>
<main>
<h1>brainql</h1>
<p>brainql answers questions about Google Antigravity agent sessions (the IDE, the CLI and
headless ACP runs) straight from their brain directories: transcripts, steps, tool calls,
commands, file changes, artifacts and problems, read-only. ${config.redact ? 'Secrets are masked in every answer.' : '<b>Redaction is off on this server: secrets are shown as written.</b>'}</p>
<h2>Brain roots</h2>
${rootsHtml(visible, config)}
<h2>Where to go</h2>
<ul>
${links}
</ul>
<h2>Example queries</h2>
<p>Five of the README's ten; the explorer opens with all ten as tabs.</p>
${examplesHtml()}
</main>
</body>
</html>
`;
}

/** GET / : the page above for the caller's scope (roots read through `roots`). */
export function landingHandler(
  config: AppConfig,
  authenticate: (req: Request) => Principal | { message: string },
  roots: (req: Request, principal: Principal) => Promise<BrainRoot[]>,
) {
  return async (req: Request, res: Response): Promise<void> => {
    const who = authenticate(req);
    const visible: Visible =
      'message' in who ? { authProblem: who.message } : { roots: await roots(req, who) };
    for (const [k, v] of Object.entries(PAGE_HEADERS)) res.setHeader(k, v);
    res.setHeader('Content-Security-Policy', LANDING_CSP);
    // The page depends on the key: never stored, never shared.
    res.setHeader('Cache-Control', 'no-store');
    res.vary('Authorization');
    res.type('html').send(landingHtml(visible, config));
  };
}

/** The stylesheet of brainql's own server-made pages (/ui/page.css): the explorer's and the docs' bar. */
export const PAGE_CSS = `:root { color-scheme: light dark; --fg: #1d2433; --muted: #5b6475; --bg: #fff;
  --line: #d8dde6; --accent: #b5179e; --code: #f3f5f9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a0a8b8; --bg: #141821;
  --line: #2c3342; --accent: #f06bd8; --code: #1d2230; } }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
main code, main pre, .note code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  font-size: 13px; }
.bar { display: flex; gap: 1em; align-items: baseline; padding: 6px 16px;
  border-bottom: 1px solid var(--line); }
.bar a { font-weight: 700; text-decoration: none; }
.bar span { color: var(--muted); }
.note { margin: 0; padding: 6px 16px; background: var(--code); border-bottom: 1px solid var(--line); }
body.explorer { height: 100vh; display: flex; flex-direction: column; }
body.explorer #root { flex: 1; min-height: 0; }
body.explorer #root > .graphiql-container { height: 100%; }
main { max-width: 60rem; margin: 0 auto; padding: 8px 16px 48px; }
main table { border-collapse: collapse; }
main th, main td { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid var(--line); }
main td.num { text-align: right; }
main pre { background: var(--code); padding: 10px 12px; overflow-x: auto; border-radius: 4px; }
.muted { color: var(--muted); }
`;

/** The pages' icon (/ui/favicon.svg): drawn here so no page asks for /favicon.ico. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#b5179e"/>
<text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">bq</text>
</svg>
`;

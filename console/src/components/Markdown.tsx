import { Marked, type Tokens } from 'marked';
import { useMemo } from 'react';
import { KEPT_HREF, sanitize } from './sanitize';
import { shown } from './text';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * An OSC sequence (ESC `]` … BEL or ESC `\`) as `shown` leaves it: U+FFFD, `]`, its payload,
 * U+FFFD. Taken as text before any other inline rule: an OSC 8 hyperlink's address would
 * otherwise become a link by GFM's bare-URL rule (the console review clicked one in an
 * artifact). Command output shows the same characters as text (components/Ansi.tsx).
 */
const OSC = /^\uFFFD\][^\uFFFD\n]*\uFFFD?/;

/**
 * Markdown only: HTML written in a transcript is shown as the text it is, never parsed. Even a
 * parse in an inert document makes Chromium check a `<style>` against the CSP (a report per
 * element), and what an agent wrote as HTML is what an auditor must read.
 */
function parser(shift: number): Marked {
  return new Marked({
    gfm: true,
    extensions: [
      {
        name: 'osc',
        level: 'inline',
        start: (src: string) => {
          const at = src.indexOf('\uFFFD]');
          return at < 0 ? undefined : at;
        },
        tokenizer: (src: string) => {
          const m = OSC.exec(src);
          return m ? { type: 'osc', raw: m[0], text: m[0] } : undefined;
        },
        renderer: (token) => `<span class="osc">${escapeHtml(String(token.text))}</span>`,
      },
    ],
    renderer: {
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
      // An image is never fetched (own-origin CSP, and a brain's address is no one's to call):
      // its alt text is shown, its address beside it as text.
      image: ({ href, text }: Tokens.Image) =>
        `<span class="md-image">[image: ${escapeHtml(text)}] <code>${escapeHtml(href)}</code></span>`,
      // The level outline() gave it (below the page's own headings, never skipping one), its
      // markdown depth as a class.
      heading(
        this: { parser: { parseInline(t: Tokens.Heading['tokens']): string } },
        t: Tokens.Heading,
      ) {
        const level = (t as OutlinedHeading).outline ?? Math.min(t.depth + shift, 6);
        return `<h${level} class="md-h${t.depth}">${this.parser.parseInline(t.tokens)}</h${level}>\n`;
      },
      // A link whose target the page does not keep (javascript:, data:, a relative path) is
      // no link: its text, and its target as text, said removed (#20 L9: it had been a
      // link-coloured word without a target). Others are the default link.
      link(this: { parser: { parseInline(t: Tokens.Link['tokens']): string } }, t: Tokens.Link) {
        if (KEPT_HREF.test(t.href)) return false;
        const target = t.href.length > 100 ? `${t.href.slice(0, 99)}…` : t.href;
        return `<span class="link-removed">${this.parser.parseInline(t.tokens)} <span class="muted">(${escapeHtml(target)} link removed)</span></span>`;
      },
    },
  });
}

type OutlinedHeading = Tokens.Heading & { outline?: number };

/**
 * The heading levels of a document below the page's `shift` levels (the page's h1, the session;
 * in an artifact, its h2, the artifact's name), as an outline: a heading is one level below the
 * nearest shallower heading before it, so no level is skipped (axe heading-order: an artifact's
 * `#` then `####` had been h3 then h6, and a transcript's `####` an h5 under the h1) and
 * headings of one depth keep one level. Past h6 they stay h6.
 */
function outline(markdown: Marked, tokens: ReturnType<Marked['lexer']>, shift: number): void {
  const open: { depth: number; level: number }[] = [];
  void markdown.walkTokens(tokens, (t) => {
    if (t.type !== 'heading') return;
    const h = t as OutlinedHeading;
    while (open.length > 0 && open[open.length - 1].depth >= h.depth) open.pop();
    const level = Math.min((open.at(-1)?.level ?? shift) + 1, 6);
    open.push({ depth: h.depth, level });
    h.outline = level;
  });
}

const parsers = new Map<number, Marked>();

/**
 * Markdown from a transcript: hidden characters made visible first, the HTML then sanitised.
 * `shift`: how many heading levels the page has above it (`#` becomes h(1 + shift)).
 */
export default function Markdown({ text, shift = 1 }: { text: string; shift?: number }) {
  const html = useMemo(() => {
    let markdown = parsers.get(shift);
    if (!markdown) parsers.set(shift, (markdown = parser(shift)));
    const tokens = markdown.lexer(shown(text));
    outline(markdown, tokens, shift);
    return sanitize(markdown.parser(tokens));
  }, [text, shift]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

import { Marked, type Tokens } from 'marked';
import { useMemo } from 'react';
import { sanitize } from './sanitize';
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
      // `shift` levels down: the page's own h1 (the session) and, in an artifact, its h2 (the
      // artifact's name) come first, so a transcript's `#` is no second h1 and an artifact's
      // `#` sits under its name (axe heading-order; the name had read as the smaller heading).
      heading(
        this: { parser: { parseInline(t: Tokens.Heading['tokens']): string } },
        t: Tokens.Heading,
      ) {
        const level = Math.min(t.depth + shift, 6);
        return `<h${level}>${this.parser.parseInline(t.tokens)}</h${level}>\n`;
      },
    },
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
    return sanitize(markdown.parse(shown(text), { async: false }));
  }, [text, shift]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

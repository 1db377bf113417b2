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
const markdown = new Marked({
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
    // One level down: the page's own h1 (the session) and h2 (an artifact) come first, so a
    // transcript's `#` is no second h1 (axe heading-order).
    heading(
      this: { parser: { parseInline(t: Tokens.Heading['tokens']): string } },
      t: Tokens.Heading,
    ) {
      const level = Math.min(t.depth + 1, 6);
      return `<h${level}>${this.parser.parseInline(t.tokens)}</h${level}>\n`;
    },
  },
});

/** Markdown from a transcript: hidden characters made visible first, the HTML then sanitised. */
export default function Markdown({ text }: { text: string }) {
  const html = useMemo(() => sanitize(markdown.parse(shown(text), { async: false })), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

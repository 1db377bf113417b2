import { Marked, type Tokens } from 'marked';
import { useMemo } from 'react';
import { sanitize } from './sanitize';
import { shown } from './text';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Markdown only: HTML written in a transcript is shown as the text it is, never parsed. Even a
 * parse in an inert document makes Chromium check a `<style>` against the CSP (a report per
 * element), and what an agent wrote as HTML is what an auditor must read.
 */
const markdown = new Marked({
  gfm: true,
  renderer: { html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text) },
});

/** Markdown from a transcript: hidden characters made visible first, the HTML then sanitised. */
export default function Markdown({ text }: { text: string }) {
  const html = useMemo(() => sanitize(markdown.parse(shown(text), { async: false })), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

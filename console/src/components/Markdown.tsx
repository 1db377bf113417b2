import { marked } from 'marked';
import { useMemo } from 'react';
import { sanitize } from './sanitize';
import { shown } from './text';

/** Markdown from a transcript: hidden characters made visible first, the HTML then sanitised. */
export default function Markdown({ text }: { text: string }) {
  const html = useMemo(() => sanitize(marked.parse(shown(text), { async: false })), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

import DOMPurify from 'dompurify';

/**
 * HTML made from brain text (markdown, diffs) as the page may hold it: no script, handler,
 * style, form, frame, image or SVG; links keep http(s), mailto and in-page targets only and
 * open apart from the console (`noopener noreferrer`).
 */
/** The link targets the page keeps: the web, mail and in-page ones. */
export const KEPT_HREF = /^(https?:|mailto:|#)/i;

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!KEPT_HREF.test(href)) node.removeAttribute('href');
  node.setAttribute('rel', 'noopener noreferrer');
  node.setAttribute('target', '_blank');
});

export function sanitize(html: string): string {
  return purify.sanitize(html, {
    FORBID_TAGS: [
      'style',
      'img',
      'svg',
      'math',
      'form',
      'input',
      'button',
      'iframe',
      'video',
      'audio',
      'picture',
      'source',
      'link',
      'meta',
    ],
    FORBID_ATTR: ['style', 'srcset', 'src', 'background', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}

/** Reading the pages' HTML in tests. */

export function unescapeHtml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Every src= and href= value of a page, unescaped. */
export function linkTargets(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => unescapeHtml(m[1]));
}

export interface RootRow {
  flavor: string;
  environment: string;
  sessionCount: number;
  path: string;
}

/** The landing page's table of roots. */
export function rootRows(html: string): RootRow[] {
  return [
    ...html.matchAll(
      /<tr><td>(.*?)<\/td><td>(.*?)<\/td><td class="num">(\d+)<\/td><td><code>(.*?)<\/code><\/td><\/tr>/g,
    ),
  ].map((m) => ({
    flavor: unescapeHtml(m[1]),
    environment: unescapeHtml(m[2]),
    sessionCount: Number(m[3]),
    path: unescapeHtml(m[4]),
  }));
}

import { contentSecurityPolicy, escapeHtml, jsonForScript } from './html';

describe('page text helpers', () => {
  it('escapeHtml: the five characters that can open markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;',
    );
  });

  it('jsonForScript: no "</script>" or line separator can end the JSON block, and it parses back', () => {
    const value = { q: '</script><script>alert(1)</script>', s: 'a\u2028b\u2029c' };
    const text = jsonForScript(value);
    expect(text).toBe(
      '{"q":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>","s":"a\\u2028b\\u2029c"}',
    );
    expect(JSON.parse(text)).toEqual(value);
  });

  it('contentSecurityPolicy: self only by default; a page adds or widens directives', () => {
    expect(contentSecurityPolicy({ 'script-src': "'none'", 'worker-src': "'self'" })).toBe(
      "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; worker-src 'self'",
    );
  });
});

import { inEveryForm, markers } from '../../src/redaction/context-forms';
import { Redactor } from '../../src/redaction/redactor';

/**
 * For the contexts specs: a redactor that records each mask's kind (`kinds`, cleared per row),
 * and `everyForm(cases)`, each `[name, input, expected]` as `it.each` rows in every form a text
 * is stored in (context-forms.ts), asserting exactly the expected masks, each counted once.
 */
export function countingRedactor() {
  const kinds: string[] = [];
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
  function everyForm(cases: readonly (readonly [string, string, string])[]): void {
    it.each(inEveryForm(cases))('%s', (_label, form, input, expected, diff) => {
      kinds.length = 0;
      const want = form(expected);
      const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
      expect(got).toBe(want);
      expect(kinds).toHaveLength(markers(want));
    });
  }
  return { r, kinds, everyForm };
}

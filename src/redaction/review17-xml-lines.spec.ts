import { Redactor } from './redactor';

/**
 * Review r17 H1: XML element text that goes on over lines. A raw JSON transcript line reads
 * `<password>V\nfoo</password>` as one line (`\n` two characters) and masked V; the decoded
 * text (GraphQL, exports, the CLI) left it clear. Now the decoded text masks the element's
 * first line (V), the raw line what it masked before (V and the lines below it). Each case: the
 * exact text served decoded, and the same text inside a JSON transcript line.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Vq7Hunter2Secret';
const P = '[REDACTED:password]';
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

/** [input, decoded output, the JSON line's content once redacted]. */
const CASES: [string, string, string][] = [
  [`<password>${V}\nfoo</password>`, `<password>${P}\nfoo</password>`, `<password>${P}</password>`],
  [`<token>${V}\nxx</token>`, `<token>${P}\nxx</token>`, `<token>${P}</token>`],
  [`<apiKey>${V}\n  more</apiKey>`, `<apiKey>${P}\n  more</apiKey>`, `<apiKey>${P}</apiKey>`],
  [
    `<apiKey>${V}\n    rotated 2026-01</apiKey>`,
    `<apiKey>${P}\n    rotated 2026-01</apiKey>`,
    `<apiKey>${P}</apiKey>`,
  ],
  [
    `<password><![CDATA[\n${V}\n]]></password>`,
    `<password><![CDATA[\n${P}\n]]></password>`,
    `<password><![CDATA[${P}]]></password>`,
  ],
  [
    `<password><![CDATA[\n  ${V}\n  ]]></password>`,
    `<password><![CDATA[\n  ${P}\n  ]]></password>`,
    `<password><![CDATA[${P}  ]]></password>`,
  ],
  [`<password>${V}\r\nx</password>`, `<password>${P}\r\nx</password>`, `<password>${P}</password>`],
  // Blanks before the first line's break are no value's (review r17, after H1's fix).
  [`<password>${V} \n x</password>`, `<password>${P} \n x</password>`, `<password>${P}</password>`],
  [`<token>${V}\t\n  more</token>`, `<token>${P}\t\n  more</token>`, `<token>${P}</token>`],
  // Maven's settings.xml as the review found it in a tool call's arguments.
  [
    `<server>\n  <password><![CDATA[\n        ${V}\n      ]]></password>\n</server>`,
    `<server>\n  <password><![CDATA[\n        ${P}\n      ]]></password>\n</server>`,
    `<server>\n  <password><![CDATA[${P}      ]]></password>\n</server>`,
  ],
];

/** Not secrets: the first line is a placeholder or a child element stands in the text. */
const CLEAR: string[] = [
  '<password>${DB_PASSWORD}\n</password>',
  // A child element other than `<value>` (review r19 masks `<value>`'s text: review19-config).
  '<password>\n  <description>x</description>\n</password>',
  '<password></password>\n<token></token>',
];

describe('XML element text over lines (review r17 H1)', () => {
  it.each(CASES)('masks the first line of %j, decoded and in a JSON line', (input, dec, esc) => {
    expect(r.redactText(input)).toBe(dec);
    expect(r.redactText(line(input))).toBe(line(esc));
  });
  it.each(CLEAR)('leaves %j clear, decoded and in a JSON line', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
  });
  it('reads a diff on each side: the markers of the lines below stay', () => {
    const diff = `@@ -1,2 +1,3 @@\n a\n+<password>${V}\n+  more</password>\n b\n`;
    expect(r.redactDiff(diff)).toBe(
      `@@ -1,2 +1,3 @@\n a\n+<password>${P}\n+  more</password>\n b\n`,
    );
  });
});

import { countingRedactor } from '../../test/redaction/every-form';
import { Redactor } from './redactor';

/**
 * Review r16 M2 and the XML half of H2: secrets in XML config written in shapes the element
 * rule missed (attributes, CDATA, upper-case names, keyed entries, .NET appSettings, text on
 * lines of its own). Each: the exact text served decoded, and the same text inside a JSON
 * transcript line (where `\n` is two characters). The tags are never masked.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Vq7Hunter2Secret';
const P = '[REDACTED:password]';
/** The text inside a JSON line, as div.js writes it. */
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

const MASKED: [string, string][] = [
  [`<password>\n${V}\n</password>`, `<password>\n${P}\n</password>`],
  [`<token>\n${V}</token>`, `<token>\n${P}</token>`],
  [`<secret> ${V}</secret>`, `<secret> ${P}</secret>`],
  [`<password>\n    ${V}\n  </password>`, `<password>\n    ${P}\n  </password>`],
  [`<password>\t${V}</password>`, `<password>\t${P}</password>`],
  [`<password>${V}\t</password>`, `<password>${P}\t</password>`],
  [`<password encrypted="false">${V}</password>`, `<password encrypted="false">${P}</password>`],
  [
    `<wsse:Password Type="http://docs.oasis-open.org/wss#PasswordText">${V}</wsse:Password>`,
    `<wsse:Password Type="http://docs.oasis-open.org/wss#PasswordText">${P}</wsse:Password>`,
  ],
  [
    `<password_confirm type="x">${V}</password_confirm>`,
    `<password_confirm type="x">${P}</password_confirm>`,
  ],
  [`<password><![CDATA[${V}]]></password>`, `<password><![CDATA[${P}]]></password>`],
  [`<PASSWORD>${V}</PASSWORD>`, `<PASSWORD>${P}</PASSWORD>`],
  [`<DB_PASSWORD>${V}</DB_PASSWORD>`, `<DB_PASSWORD>${P}</DB_PASSWORD>`],
  [`<entry key="db.password">${V}</entry>`, `<entry key="db.password">${P}</entry>`],
  [`<string name="api_key">${V}</string>`, `<string name="api_key">${P}</string>`],
  [`<add key="ApiKey" value="${V}"/>`, `<add key="ApiKey" value="${P}"/>`],
  [`<add key="ApiKey" value="${V}" />`, `<add key="ApiKey" value="${P}" />`],
];

const CLEAR: string[] = [
  '<string name="prompt_password">Enter your password</string>',
  '<password>${DB_PASSWORD}</password>',
  '<entry key="db.user">admin</entry>',
  '<add key="Timeout" value="30"/>',
  '<password></password>',
  '<keyboard>qwerty12345</keyboard>',
  // A child element other than `<value>` (review r19 masks `<value>`'s text: review19-config).
  '<password>\n  <description>x</description>\n</password>',
];

describe('XML secrets (review r16 M2, H2)', () => {
  it.each(MASKED)('masks the value of %j, decoded and in a JSON line', (input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
  });
  it.each(CLEAR)('leaves %j clear, decoded and in a JSON line', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
  });
});

describe('XML secrets in every form a transcript stores them (review r16 routes16)', () => {
  const { everyForm } = countingRedactor();
  everyForm([
    [
      "Maven's settings.xml",
      `<server>\n  <id>repo</id>\n  <password>\n    ${V}\n  </password>\n</server>`,
      `<server>\n  <id>repo</id>\n  <password>\n    ${P}\n  </password>\n</server>`,
    ],
    ['a tab before the text', `<password>\t${V}</password>`, `<password>\t${P}</password>`],
    [
      'WS-Security',
      `<wsse:Password Type="#PasswordText">${V}</wsse:Password>`,
      `<wsse:Password Type="#PasswordText">${P}</wsse:Password>`,
    ],
  ]);
});

import { fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 22 F1: a secret found in one written form and shown again in another form in
 * the same text was served clear there (full tier, exports, raw lines, downloads), while a cut
 * compact record masked it (its twin's values are kept in their forms: ./tier-values):
 * `{"db_password": "C0rp\\Adm1n…"}` then `connecting with C0rp\Adm1n…` (JSON-escaped, then
 * decoded), `DB_PASSWORD="Zq8\$m…"` then `echo Zq8$m…` (a shell escape), a value with `&`
 * shown HTML-escaped or URL-encoded.
 */

const { r, line, nested, bytesOf } = fourForms();
const P = '[REDACTED:password]';

/** [input, what it is served as once decoded]: each echo was clear on main. */
const CASES: [string, string][] = [
  [
    '{"db_password": "C0rp\\\\Adm1nPass99"}\nconnecting with password C0rp\\Adm1nPass99 to db',
    `{"db_password": "${P}"}\nconnecting with password ${P} to db`,
  ],
  [
    'password: "C0rp\\\\Adm1nPass99"\nlogin ok as C0rp\\Adm1nPass99 done',
    `password: "${P}"\nlogin ok as ${P} done`,
  ],
  [
    'DB_PASSWORD=\'C0rp\\Adm1nPass99\'\necho "C0rp\\\\Adm1nPass99"',
    `DB_PASSWORD='${P}'\necho "${P}"`,
  ],
  [
    '{"db_password": "Ke\\"yQu0te7Pass99"}\nconnecting with password Ke"yQu0te7Pass99 to db',
    `{"db_password": "${P}"}\nconnecting with password ${P} to db`,
  ],
  [
    'DB_PASSWORD=\'Ke"yQu0te7Pass99\'\necho "Ke\\"yQu0te7Pass99"',
    `DB_PASSWORD='${P}'\necho "${P}"`,
  ],
  [
    '{"db_password": "Xy\\tTabL1nePass99"}\nconnecting with Xy\tTabL1nePass99 to db',
    `{"db_password": "${P}"}\nconnecting with ${P} to db`,
  ],
  [
    'export DB_PASSWORD="Zq8\\$mW2pL9vKx"\necho using Zq8$mW2pL9vKx now',
    `export DB_PASSWORD="${P}"\necho using ${P} now`,
  ],
  [
    "DB_PASSWORD='Ab&cd9Kq7Zx2'\n<td>Ab&amp;cd9Kq7Zx2</td> ?p=Ab%26cd9Kq7Zx2",
    `DB_PASSWORD='${P}'\n<td>${P}</td> ?p=${P}`,
  ],
  ["API_TOKEN='Ab<c>d9Kq7Zx2Qm'\n<p>Ab&lt;c&gt;d9Kq7Zx2Qm</p>", `API_TOKEN='${P}'\n<p>${P}</p>`],
  // The review's step: the value as written, its JSON-escaped key form, written again.
  [
    'the value is Qu"ot9xYz12Ab3 ok\n{"password": "Qu\\"ot9xYz12Ab3"}\nagain: Qu"ot9xYz12Ab3 done',
    `the value is ${P} ok\n{"password": "${P}"}\nagain: ${P} done`,
  ],
  [
    '{"password": "Ls\\u2028ep9xYz12Ab3"}\nagain: Ls\u2028ep9xYz12Ab3 done',
    `{"password": "${P}"}\nagain: ${P} done`,
  ],
  // The other way round: the value found as written, its escaped echo after.
  [
    'DB_PASSWORD=C0rp\\Rev1Pass99x\n{"msg": "connected with C0rp\\\\Rev1Pass99x"}',
    `DB_PASSWORD=${P}\n{"msg": "connected with ${P}"}`,
  ],
  [
    "DB_PASSWORD='Amp&Rev3Pass99x'\n<b>Amp&amp;Rev3Pass99x</b> ?p=Amp%26Rev3Pass99x",
    `DB_PASSWORD='${P}'\n<b>${P}</b> ?p=${P}`,
  ],
  [
    'DB_PASSWORD=\'Dollar$Rev6Pass99x\'\necho "Dollar\\$Rev6Pass99x"',
    `DB_PASSWORD='${P}'\necho "${P}"`,
  ],
  [
    'API_TOKEN=\'Ls\u2028ep9xYz12Ab3\'\n{"t": "Ls\\u2028ep9xYz12Ab3"}',
    `API_TOKEN='${P}'\n{"t": "${P}"}`,
  ],
];

/** Near misses: a value's other form inside a longer word, and ordinary escapes: clear. */
const CLEAR = [
  'connecting with C0rp\\Adm1nPass99 to db',
  '{"path": "C:\\\\Users\\\\bob"}\nopened C:\\Users\\bob',
  '<td>Tom &amp; Jerry</td> Tom & Jerry',
];

describe('review 23: an echo in another written form of a secret found in the same text', () => {
  it.each(CASES)('masks every form in %j', (t, want) => {
    expect(r.redactText(t)).toBe(want);
    expect(r.redactText(line(t))).toBe(line(want));
    expect(r.redactText(nested(t))).toBe(nested(want));
  });

  it.each(CASES)('shows no form of the secret in the downloaded bytes of %j', (t) => {
    const bytes = bytesOf(line(t));
    expect(Buffer.byteLength(bytes)).toBe(Buffer.byteLength(line(t)));
    for (const v of [
      'Adm1nPass99',
      'Qu0te7Pass99',
      'L1nePass99',
      'mW2pL9vKx',
      'cd9Kq7Zx2',
      'ot9xYz',
      'ep9xYz',
      'Rev',
    ]) {
      expect(bytes).not.toContain(v);
    }
  });

  it.each(CLEAR)('leaves %j as it is', (t) => {
    expect(r.redactText(t)).toBe(t);
    expect(r.redactText(line(t))).toBe(line(t));
  });
});

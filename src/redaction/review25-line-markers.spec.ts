import { fourForms } from '../../test/redaction/four-forms';

/**
 * Review 24, medium 2: a value with punctuation after a line's marker was clear everywhere,
 * where the same line without the marker was masked: a diff's `+` (a `git diff` in a command's
 * output), a comment's `#`, `//`, a quote's `>`, a prompt's `$`, a list's `*`, a table's
 * `12 |`, `[12]`, grep's `path:12:`. Every form as ./review24-values.
 */

const { forms, maskedAll, clear } = fourForms();

/** The forms expected when `v` in `t` is masked as a password. */
const masked = (t: string, v: string) => maskedAll(t, [v]);

const P = 'Ab(Qr00Xm2vL9pT4wZ8';

const MASKED: [string, string][] = [
  [`+DB_PASSWORD=${P}`, P],
  [`+export DB_PASSWORD=${P}`, P],
  [`# DB_PASSWORD=${P}`, P],
  [`// DB_PASSWORD=${P}`, P],
  [`> DB_PASSWORD=${P}`, P],
  [`$ DB_PASSWORD=${P}`, P],
  [`* DB_PASSWORD=${P}`, P],
  [`12 | DB_PASSWORD=${P}`, P],
  [`[12] DB_PASSWORD=${P}`, P],
  [`src/.env:12:DB_PASSWORD=${P}`, P],
  [`diff --git a/.env b/.env\n@@ -1 +1 @@\n+DB_PASSWORD=${P}\n context`, P],
];

const CLEAR = [
  '+DB_HOST=localhost',
  '// DB_PASSWORD=getPassword()',
  '$ DB_PASSWORD=$(cat /run/secret)',
  '12 | password: foo(bar) baz',
  'src/app.ts:12:const password = getPassword();',
  '* password: (none)',
  '# DB_PASSWORD=<your-password>',
];

describe("review 24: a value after a line's marker", () => {
  it.each(MASKED)('masks %j in every form', (t, v) => {
    expect(forms(t)).toEqual(masked(t, v));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });
});

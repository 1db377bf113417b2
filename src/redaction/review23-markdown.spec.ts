import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Credentials written as markdown or prose (review 23, medium): as Antigravity's own artifacts
 * write them (walkthrough.md, implementation plans, task lists) and as people write them. An
 * artifact `walkthrough.md` holding "- **Password:** `V`" was served clear by the file
 * download, GraphQL `artifact(name:){content}`, the markdown export and search snippets, and the
 * secrets report never counted it: no key rule reads a key inside `**…**`, a table's cell, a
 * key of two words (`API Key`) or a sentence (`password is V`). ./markdown reads them; the
 * value must look generated (letters and digits), so prose and tables about passwords stay.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, masked, line, nested } = fourForms();

const V = 'Wlk7q9wT4qZ2nRm6pLs';
const P = 'Tr0ub4dor&3Qx';

/** [input, the secret in it]: each was clear in every form on main; masked as `password`. */
const MASKED: [string, string][] = [
  // Markdown keys: bold or italic, the `:` inside the emphasis or after it.
  [`- **Password:** \`${V}\``, V],
  [`- **Password**: ${V}`, V],
  [`**Password:** \`${V}\``, V],
  [`*Password:* ${V}`, V],
  [`**API Key:** ${V}`, V],
  [`**Token:** ${V}`, V],
  [`**DB_PASSWORD:** ${V}`, V],
  [`**\`DB_PASSWORD\`**: \`${V}\``, V],
  [`- **Admin password**: \`${P}\``, P],
  [`**Secret Key:** ${V} (rotate monthly)`, V],
  [`**Password:** ${V}.`, V],
  [`1. **Password:** \`admin1234\``, 'admin1234'],
  [`**Password:** "${V}"`, V],
  [`**API Key:** '${V}'`, V],
  // Tables: a key cell then its value; a header's secret column, in each row below.
  [`| Password | \`${V}\` |`, V],
  [`| **API Key** | ${V} |`, V],
  [`| Field | Value |\n|---|---|\n| Email | admin@x.com |\n| Password | ${V} |`, V],
  [`| Email | Password |\n|---|---|\n| admin@x.com | ${V} |`, V],
  [`| Email | Password | Role |\n| --- | :---: | --- |\n| admin@x.com | \`${V}\` | admin |`, V],
  [`| User | API Key |\n|------|---------|\n| bot | ${V} |`, V],
  [`| Password | \`${V}\` (rotate monthly) |`, V],
  [`| Email | Password |\n|---|---|\n| admin@x.com | \`${V}\` (dev only) |`, V],
  // Sentences.
  [`my password is ${V}`, V],
  [`Password is ${V}`, V],
  [`The DB password is ${V}, please use it`, V],
  [`password - ${V}`, V],
  [`The password was \`${V}\`.`, V],
  [`my password is "${V}"`, V],
  [`Your new password — ${P}`, P],
  // Keys of two words, and a login's user and password.
  [`API Key: ${V}`, V],
  [`Api key = ${V}`, V],
  [`secret key: ${V}`, V],
  [`ACCESS KEY: ${V}`, V],
  [`login: admin / ${V}`, V],
  [`Login: admin@x.com / ${P}`, P],
];

/** Masked on main already (kept so). */
const KEPT: [string, string][] = [
  [`Password: ${V}`, V],
  [`- Password: \`${V}\``, V],
  [`DB_PASSWORD=${V}`, V],
  [`"api_key": "${V}"`, V],
];

/** Tables holding two secrets: both masked, the rest of the table as it was. */
const TWO = `| Email | Password |\n|---|---|\n| a@x.com | ${V} |\n| b@x.com | ${P} |`;

/** Near misses: clear in every form. */
const CLEAR = [
  'the password is stored in Vault',
  '**Password:** see 1Password',
  'Password is required',
  '| Password | Required |',
  '| Email | Password |\n|---|---|',
  '**Token:** the GitHub token from step 3',
  '**Password:** `<your-password>`',
  '**Password:** changeme',
  '**Password:** `********`',
  '**Password:** `${DB_PASSWORD}`',
  '**Password:** `process.env.DB_PASSWORD`',
  '**Token:** `$GITHUB_TOKEN`',
  '**Password:** Set via `DB_PASSWORD` env',
  '**API Key:** stored in .env as `OPENAI_API_KEY`',
  '- **API Key**: Required for v2 endpoints',
  '**Password**: **Required**',
  '**Token:** v1.2.3',
  '**Token:** JWT (HS256)',
  '**Auth:** OAuth2',
  '**Primary Key:** user_id2',
  '**Password hashing:** bcrypt12',
  '| Password | string | yes |',
  '| password | VARCHAR(255) | NOT NULL |',
  '| Password | `VARCHAR(255)` |',
  '| Password | Required (min 8) |',
  `| Password | see \`${V}\` |`,
  '| DB_PASSWORD | `postgres` |',
  '| Token | Description |\n|---|---|\n| access | JWT used for v2 API |',
  '| Email | Password |\n|---|---|\n| admin@x.com | (see vault) |',
  '| Email | Password |\n|---|---|\n| admin@x.com | `<set in .env>` |',
  '| Model | Max Token |\n|---|---|\n| gpt-4 | 8192 |',
  '| Variable | Description |\n|---|---|\n| SECRET_KEY | Django secret key |',
  '| Setting | Value |\n|---|---|\n| Password min length | 12 |',
  // token-types' README: a parser's tokens, in a `Token` column.
  '| Token | Type | Bits |\n|---|---|---|\n| `UINT16_BE` | Unsigned integer | 16 |\n| `Float32_LE` | IEEE 754 float | 32 |',
  '| API key | Where |\n|---|---|\n| `OPENAI_API_KEY_2` | .env |',
  '**Token:** abc123def456',
  '**Password:** `DB_PASSWORD_2`',
  `| Email | Password |\n|---|---|\n| a@x.com | x |\n\n| Email | Note |\n|---|---|\n| b@x.com | ${V} |`,
  'password is abc',
  'the password is 8 characters',
  'password - see docs',
  'password - 8 chars min',
  'password was reset2 times',
  'The password is hashed with bcrypt before storage',
  'Your password is too weak',
  'my password is in 1Password',
  'Password - Forgot? Reset it',
  `compass is ${V}`,
  'API key: your-api-key-here',
  'secret key: ${SECRET_KEY}',
  'Api key = process.env.API_KEY',
  'primary key: id2024',
  'sort key: created_at2',
  'login: admin / admin',
  'login: admin / <password>',
  'login: user@example.com / see-vault',
  `plugin: admin / ${V}`,
];

describe('review 23: credentials written as markdown or prose', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v) => {
    expect(forms(t)).toEqual(masked(t, v, 'password'));
  });

  it.each(KEPT)('still masks %j in all four forms', (t, v) => {
    expect(forms(t)).toEqual(masked(t, v, 'password'));
  });

  it('masks every row of a secret column', () => {
    const want = TWO.replace(V, '[REDACTED:password]').replace(P, '[REDACTED:password]');
    const bytes = line(TWO).replace(V, '[REDACTED:password]').replace(P, '[REDACTED:pas');
    expect(forms(TWO)).toEqual(andWhole([want, line(want), bytes, nested(want)]));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });
});

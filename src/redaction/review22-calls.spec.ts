import { fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 21, served clear on every route (each with a 24-character value V):
 *
 * 1. Setter and builder calls named for the secret, one string literal argument:
 *    `config.setPassword("V")` (HikariCP, JDBC), `.username("app").password("V")`,
 *    `.withPassword("V")`, `client.setApiKey("V")`, `api.setToken("V")`,
 *    `github.NewClient(nil).WithAuthToken("V")`.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, masked } = fourForms();

const V = 'PuVvKr2lMxtC6uQ38IKBF98x';

/** [input, the secret in it, the mask's kind]: each was clear in every form on main. */
const MASKED: [string, string, string][] = [
  // 1. Setters and builders.
  [`config.setPassword("${V}");`, V, 'password'],
  [`.username("app").password("${V}")`, V, 'password'],
  [`.withPassword("${V}")`, V, 'password'],
  [`client.setApiKey("${V}");`, V, 'password'],
  [`api.setToken("${V}")`, V, 'password'],
  [`github.NewClient(nil).WithAuthToken("${V}")`, V, 'password'],
  [`ds.setPassword('${V}')`, V, 'password'],
  [`builder.setClientSecret( "${V}" )`, V, 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'config.setPassword(password);',
  'setToken(token)',
  'api.setToken(cfg.token)',
  'config.setPassword("");',
  'config.setPassword("changeme");',
  `resetPassword("${V}")`,
  `config.setPasswordFile("${V}")`,
  `cache.key("${V}")`,
  `client.setApiKey("${V}", region)`,
  `.withPassword(System.getenv("DB_PASSWORD"))`,
  `setTokenizer("${V}")`,
];

describe('review 22: setter calls, C constants, schtasks, glued .env values', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    const { line, nested } = fourForms();
    expect(forms(t)).toEqual([t, line(t), line(t), nested(t)]);
  });
});

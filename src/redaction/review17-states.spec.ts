import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r17 L: a field's state after a password's name (`Password: Weak`, `password: expired`)
 * was masked and counted as a secret on every route; a state is no value, as `password:
 * required` is not. A word with more to it (`Strong1`, `Weakling`) is still a value.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';

describe("a field's state after a password's name is kept", () => {
  const states =
    'Weak Strong OK Show Hidden Expired Set Valid Invalid Disabled Enabled Unchanged Saved ' +
    'Verified Match Mismatch Changed Confirmed Reset Locked';
  everyForm([
    ...states.split(' ').map((w) => [w, `Password: ${w}`, `Password: ${w}`] as const),
    ['lower case, with a stop', 'password: expired.', 'password: expired.'],
    ['quoted', '{"password": "Invalid"}', '{"password": "Invalid"}'],
    ['after =', 'DB_PASSWORD=unchanged', 'DB_PASSWORD=unchanged'],
  ]);
});

describe('a word that only begins like one is still a value', () => {
  everyForm([
    ['a digit', 'password: Strong1', `password: ${PW}`],
    ['a longer word', 'Password: Weakling', `Password: ${PW}`],
    ['quoted', '{"password": "Reset2026!"}', `{"password": "${PW}"}`],
  ]);
});

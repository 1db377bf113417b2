import { countingRedactor } from '../../test/redaction/every-form';

/**
 * The eleventh outside review of issue 19, what was fixed after it on main: false positives
 * (ordinary text masked and counted as a secret) and AUTH in a sentence.
 */

const { everyForm } = countingRedactor();

const U = '[REDACTED:url-credentials]';
const README =
  'Set DATABASE_URL=postgres://user:password@localhost:5432/mydb first. The login form ' +
  "validates the password field; a wrong password shows 'Invalid password'.";

describe('review 11 (M1): a placeholder password in a URL, and its echoes', () => {
  everyForm([
    ['the word password in a README URL, then prose', README, README],
    [
      'the other placeholders',
      'mysql://root:passwd@db/x, redis://:<password>@cache:6379, amqp://u:your_password@mq',
      'mysql://root:passwd@db/x, redis://:<password>@cache:6379, amqp://u:your_password@mq',
    ],
    [
      'a real one is masked, and its echo',
      'postgres://app:changeme123@db/app then PGPASSWORD is changeme123 too',
      `postgres://app:${U}@db/app then PGPASSWORD is ${U} too`,
    ],
    [
      'secret stays a password',
      'postgres://user:secret@db:5432/x',
      `postgres://user:${U}@db:5432/x`,
    ],
  ]);
});

describe('review 11 (M2): the passwd program output', () => {
  everyForm([
    [
      'success',
      'passwd: all authentication tokens updated successfully.',
      'passwd: all authentication tokens updated successfully.',
    ],
    [
      'failure',
      'passwd: Authentication token manipulation error',
      'passwd: Authentication token manipulation error',
    ],
    ['a value after passwd: is still one', 'passwd: hunter2xyz', 'passwd: [REDACTED:password]'],
  ]);
});

const P = '[REDACTED:password]';
describe('review 11 (H2): AUTH in a sentence after redis-cli, valkey-cli, keydb-cli', () => {
  everyForm([
    [
      'AUTH X going on',
      'The user gave keydb-cli AUTH tasuflWXqPHnpC6b so I should use it.',
      `The user gave keydb-cli AUTH ${P} so I should use it.`,
    ],
    [
      'AUTH user X going on',
      'then valkey-cli AUTH default Qg6nEe62Dl4E7v worked',
      `then valkey-cli AUTH default ${P} worked`,
    ],
    [
      'AUTH X and a word ending the text',
      'The user gave redis-cli AUTH KOHNfEkalT2ib0 so',
      `The user gave redis-cli AUTH ${P} so`,
    ],
    [
      'AUTH user X ending the line',
      'redis-cli AUTH default hunter2',
      `redis-cli AUTH default ${P}`,
    ],
    ['AUTH X ending the line', 'redis-cli AUTH hunter', `redis-cli AUTH ${P}`],
    [
      'prose about AUTH stays',
      'use redis-cli AUTH with the password then PING',
      'use redis-cli AUTH with the password then PING',
    ],
  ]);
});

import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r13 M2: a value that starts with a backslash escape (`\/`, `\t`…) where an option
 * or a user's separator names it was not read: `curl -u bob:\/Vq7…`, `smbclient -U bob%\/…`,
 * `lftp -u bob,\/…`, `openssl … -passout pass:\/…`, Java's and influx's
 * single-dash long options (`keytool -storepass \/…`), and a second escape right after a
 * value's first (`password: \t\t…`, `-p \/\/…`). Values are made up; `\` below is one
 * backslash of the text as typed. (`http -a bob:\/…`, also listed, is masked whole on main
 * since r13's `\/` fix.)
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';
const U = '[REDACTED:url-credentials]';
const V = 'Vq7MWcqmUIYttD3A';

describe("a user's password starting with an escape", () => {
  everyForm([
    ['curl -u bob:\\/', `curl -u bob:${BS}/${V} https://h`, `curl -u bob:${P} https://h`],
    [
      'curl --user bob:\\/',
      `curl --user bob:${BS}/${V} https://h`,
      `curl --user bob:${P} https://h`,
    ],
    ['curl -u bob:\\t', `curl -u bob:${BS}t${V} https://h`, `curl -u bob:${P} https://h`],
    ['curl -ubob:\\/ (glued)', `curl -ubob:${BS}/${V} https://h`, `curl -ubob:${P} https://h`],
    ['smbclient -U bob%\\/', `smbclient //h/s -U bob%${BS}/${V}`, `smbclient //h/s -U bob%${P}`],
    ['lftp -u bob,\\/', `lftp -u bob,${BS}/${V} ftp.h`, `lftp -u bob,${P} ftp.h`],
    [
      'openssl -passout pass:\\/',
      `openssl genrsa -passout pass:${BS}/${V} 2048`,
      `openssl genrsa -passout pass:${P} 2048`,
    ],
  ]);
});

describe('a single-dash long option and a value starting with an escape', () => {
  everyForm([
    [
      'keytool -storepass \\/',
      `keytool -list -storepass ${BS}/${V}`,
      `keytool -list -storepass ${P}`,
    ],
    [
      'influx -password \\/',
      `influx -username u -password ${BS}/${V}`,
      `influx -username u -password ${P}`,
    ],
  ]);
});

describe("a second escape right after a value's first", () => {
  everyForm([
    ['password: \\t\\t', `password: ${BS}t${BS}t${V}`, `password: ${P}`],
    ['password: \\g\\t', `password: ${BS}g${BS}t${V}`, `password: ${P}`],
    ['DB_PASSWORD=\\t\\t', `DB_PASSWORD=${BS}t${BS}t${V}`, `DB_PASSWORD=${P}`],
    ['mysql -p\\t\\t', `mysql -p${BS}t${BS}t${V} db`, `mysql -p${P} db`],
    ['sshpass -p \\/\\/', `sshpass -p ${BS}/${BS}/${V} ssh h`, `sshpass -p ${P} ssh h`],
    [
      'postgres://app:\\f\\f',
      `psql postgres://app:${BS}f${BS}f${V}@db/x`,
      `psql postgres://app:${U}@db/x`,
    ],
  ]);
});

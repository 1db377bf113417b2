import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r13's probes (new13e.py): `\/` in the middle of an unquoted value cut it at the
 * backslash (`DB_PASSWORD=Pw\/Vq7…` masked `Pw`, the rest served clear), where `\n`, `\t`,
 * `\u`… in the same place were read on. README lists `/` among the escapes. Values are made up;
 * `\` below is one backslash of the text as typed.
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';
const V = 'Vq7NuuglM5Ff60jG';

describe('\\/ in the middle of an unquoted value', () => {
  everyForm([
    ['DB_PASSWORD=', `DB_PASSWORD=Pw${BS}/${V}`, `DB_PASSWORD=${P}`],
    ['PGPASSWORD= before psql', `PGPASSWORD=Pw${BS}/${V} psql`, `PGPASSWORD=${P} psql`],
    ['password: ', `password: Pw${BS}/${V}`, `password: ${P}`],
    [
      'mysql -p in a text holding a "',
      `echo "x"; mysql -pPw${BS}/${V} db`,
      `echo "x"; mysql -p${P} db`,
    ],
    [
      'docker login -p',
      `docker login -u bob -p Pw${BS}/${V} reg`,
      `docker login -u bob -p ${P} reg`,
    ],
    ['curl -u user:', `curl -u bob:Pw${BS}/${V} https://h`, `curl -u bob:${P} https://h`],
    ['\\n there, as before', `DB_PASSWORD=Pw${BS}n${V}`, `DB_PASSWORD=${P}`],
  ]);
});

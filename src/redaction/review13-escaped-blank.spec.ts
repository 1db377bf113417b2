import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r13's probes (new13d.py): a shell-escaped blank before the command (`x\ mysql`) hid a
 * value's own escaped blank: `x\ mysql -pPw\ Vq7…` masked `Pw\`, the tail served clear. The
 * rescan that keeps escaped blanks (review 12) kept the value's too, ending it there. Values
 * are made up; `\` below is one backslash of the text as typed.
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';
const V = 'Vq7n5pV3hebBa1wa';

describe("a value's escaped blank after an escaped blank before the command", () => {
  everyForm([
    ['mysql -p, glued', `x${BS} mysql -pPw${BS} ${V} db`, `x${BS} mysql -p${P} db`],
    ['sshpass -p', `x${BS} sshpass -p Pw${BS} ${V} ssh h`, `x${BS} sshpass -p ${P} ssh h`],
    [
      'docker login -p',
      `x${BS} docker login -u bob -p Pw${BS} ${V} reg`,
      `x${BS} docker login -u bob -p ${P} reg`,
    ],
    ['redis-cli -a', `x${BS} redis-cli -a Pw${BS} ${V} ping`, `x${BS} redis-cli -a ${P} ping`],
    [
      'two escaped blanks first',
      `${BS} ${BS} mysql -pPw${BS} ${V} db`,
      `${BS} ${BS} mysql -p${P} db`,
    ],
    ['the value starts with one', `x${BS} mysql -p${BS} ${V} db`, `x${BS} mysql -p${P} db`],
    ['sudo\\ mysql', `sudo${BS} mysql -pPw${BS} ${V} db`, `sudo${BS} mysql -p${P} db`],
    ['ab\\ mysql', `ab${BS} mysql -pPw${BS} ${V} db`, `ab${BS} mysql -p${P} db`],
    ['two in the value', `x${BS} mysql -pPw${BS} a${BS} ${V} db`, `x${BS} mysql -p${P} db`],
    ['no escaped blank before, as before', `mysql -pPw${BS} ${V} db`, `mysql -p${P} db`],
  ]);
});

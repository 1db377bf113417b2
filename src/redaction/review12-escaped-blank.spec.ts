import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r12's probes (div2.py): a backslash value was served clear when a shell-escaped blank
 * (`word\ `) stood before the command. The backslash rescan read `\ ` as `xx`, gluing the word
 * before it to the command (`xxxmysql`): no command, no option. The same prefix with a plain
 * value was masked (the first scan). Values are made up; `\` below is one backslash of the
 * text as typed (the forms escape it as they store it).
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';

describe('a backslash value after an escaped blank before the command', () => {
  everyForm([
    [
      'mysql, quoted, \\g',
      `x${BS} mysql -p'Pw${BS}gM5qHwLb1o5b4yx' db`,
      `x${BS} mysql -p'${P}' db`,
    ],
    [
      'docker login, double quotes, \\Y',
      `x${BS} docker login -p "X${BS}YM5qHwLb1o5b4yx" reg`,
      `x${BS} docker login -p "${P}" reg`,
    ],
    [
      'sshpass -p and a blank, \\/',
      `x${BS} sshpass -p ${BS}/M5qHwLb1o5b4yx ssh h`,
      `x${BS} sshpass -p ${P} ssh h`,
    ],
    ['mysql, glued, \\l', `x${BS} mysql -p${BS}lM5qHwLb1o5b4yx db`, `x${BS} mysql -p${P} db`],
    [
      'a PowerShell prompt ending in a backslash',
      `PS C:${BS}Users${BS}dev${BS} mysql -p'Pw${BS}gM5qHwLb1o5b4yx'`,
      `PS C:${BS}Users${BS}dev${BS} mysql -p'${P}'`,
    ],
    [
      'a lone escaped blank before docker',
      `echo a ${BS} docker login -p 'X${BS}YM5qHwLb1o5b4yx'`,
      `echo a ${BS} docker login -p '${P}'`,
    ],
    ['the plain value, as before', `x${BS} mysql -pPwM5qHwLb1o5b4yx db`, `x${BS} mysql -p${P} db`],
    [
      'an escaped blank inside the value, as before',
      `mysql -p'Pw${BS} qo86M5qHwLb1o' db`,
      `mysql -p'${P}' db`,
    ],
  ]);
});

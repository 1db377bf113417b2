import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r17 M4: the word for password in Hindi, Arabic (both phrasings), Persian, Hebrew, Thai,
 * Greek and Indonesian named no secret (`पासवर्ड: V`, `كلمة المرور: V` clear on every route);
 * their forms' "required" messages stay as `password: required` does. Values are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('the word for password in seven more languages', () => {
  everyForm([
    ['Hindi', `पासवर्ड: ${V}`, `पासवर्ड: ${PW}`],
    ['Arabic', `كلمة المرور: ${V}`, `كلمة المرور: ${PW}`],
    ['Arabic, the other word', `كلمة السر = ${V}`, `كلمة السر = ${PW}`],
    ['Persian', `رمز عبور: ${V}`, `رمز عبور: ${PW}`],
    ['Hebrew', `סיסמה: ${V}`, `סיסמה: ${PW}`],
    ['Hebrew, the other spelling', `סיסמא=${V}`, `סיסמא=${PW}`],
    ['Thai', `รหัสผ่าน: ${V}`, `รหัสผ่าน: ${PW}`],
    ['Greek', `Κωδικός: ${V}`, `Κωδικός: ${PW}`],
    ['Greek capitals', `ΚΩΔΙΚΟΣ: ${V}`, `ΚΩΔΙΚΟΣ: ${PW}`],
    ['Greek without its accent', `κωδικος=${V}`, `κωδικος=${PW}`],
    ['Indonesian', `Kata sandi: ${V}`, `Kata sandi: ${PW}`],
    ['Indonesian, a variable', `KATA_SANDI=${V}`, `KATA_SANDI=${PW}`],
    ['Indonesian, JSON', `{"kataSandi": "${V}"}`, `{"kataSandi": "${PW}"}`],
  ]);
});

describe('their "required" messages and look-alike words stay', () => {
  everyForm([
    ['Greek required', 'Κωδικός: απαιτείται', 'Κωδικός: απαιτείται'],
    ['Hindi required', 'पासवर्ड: आवश्यक', 'पासवर्ड: आवश्यक'],
    ['Arabic required', 'كلمة المرور: مطلوبة', 'كلمة المرور: مطلوبة'],
    ['Hebrew required', 'סיסמה: חובה', 'סיסמה: חובה'],
    ['Thai required', 'รหัสผ่าน: จำเป็น', 'รหัสผ่าน: จำเป็น'],
    ['Indonesian required', 'Kata sandi: wajib', 'Kata sandi: wajib'],
    [
      'words ending like sandi',
      `Fundi: ${V} Hindi: ${V} mundi: hello`,
      `Fundi: ${V} Hindi: ${V} mundi: hello`,
    ],
    ['sandi alone', 'Sandi: ok', 'Sandi: ok'],
  ]);
});

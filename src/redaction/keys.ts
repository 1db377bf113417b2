import { MARK } from './composed';
import { randomLetters } from './cut-token';
import { ci, REDACTED } from './detector';

/** Non-ASCII letters both ways: ci() only folds ASCII. */
const fold = (pairs: string) => `[${pairs}]`;
/**
 * `password` in French, German, Dutch, Spanish, Portuguese, Italian and Romanian, Russian,
 * Polish, Czech and Slovak, Turkish, Swedish, Norwegian and Danish, Finnish, Chinese, Japanese
 * and Korean: as keys, like
 * `password`, with any separator or case.
 */
const FOREIGN_PASSWORDS = [
  ci('mdp'),
  // Also as words (`mot de passe : …`, `Le mot de passe est : …`).
  `${ci('mot')}[ _-]?${ci('de')}[ _-]?${ci('passe')}(?:[ \\t]+${ci('est')})?`,
  `(?:${ci('pass')}|${ci('kenn')})${ci('wort')}`,
  ci('wachtwoord'),
  `${ci('contrase')}(?:${fold('ñÑ')}|[nN])${ci('a')}`,
  ci('senha'),
  ci('parola'),
  `${fold('пП')}${fold('аА')}${fold('рР')}${fold('оО')}${fold('лЛ')}${fold('ьЬ')}`,
  `${ci('has')}(?:${fold('łŁ')}|[lL])${ci('o')}`,
  ci('heslo'),
  `(?:${fold('şŞ')}|[sS])${ci('ifre')}`,
  `${ci('l')}(?:${fold('öÖ')}|[oO])${ci('senord')}`,
  ci('passord'),
  ci('adgangskode'),
  ci('salasana'),
  // Hungarian, Vietnamese (two words, as `mot de passe`), full-width ASCII (review r12).
  `${ci('jelsz')}(?:${fold('óÓ')}|[oO])`,
  `${ci('m')}(?:${fold('ậẬ')}|[aA])${ci('t')}[ _-]?${ci('kh')}(?:${fold('ẩẨ')}|[aA])${ci('u')}`,
  [...'password']
    .map((c) => fold(String.fromCharCode(c.charCodeAt(0) + 0xfee0, c.charCodeAt(0) + 0xfec0)))
    .join(''),
  // Chinese (simplified, traditional), Japanese, Korean.
  '密码',
  '密碼',
  'パスワード',
  '비밀번호',
  // Hindi, Arabic (two words each way), Persian, Hebrew, Thai, Greek, Indonesian/Malay
  // (review r17 M4: `पासवर्ड: …`, `كلمة المرور: …` were clear).
  'पासवर्ड',
  'كلمة المرور',
  'كلمة السر',
  'رمز عبور',
  'סיסמ[הא]',
  'รหัสผ่าน',
  `${fold('κΚ')}${fold('ωΩ')}${fold('δΔ')}${fold('ιΙ')}${fold('κΚ')}(?:${fold('όΌ')}|${fold('οΟ')})(?:${fold('σΣ')}|ς)`,
  `${ci('kata')}[ _-]?${ci('sandi')}`,
];
/** Services whose `<name>_KEY` is a credential (sixth review: only `api_key` and a few were). */
const SERVICES = [
  'openai',
  'anthropic',
  'claude',
  'gemini',
  'google',
  'mistral',
  'groq',
  'cohere',
  'deepseek',
  'openrouter',
  'perplexity',
  'replicate',
  'together',
  'fireworks',
  'elevenlabs',
  'pinecone',
  'stripe',
  'supabase',
  'firebase',
  'anon',
  'sendgrid',
  'mailgun',
  'postmark',
  'resend',
  'twilio',
  'algolia',
  'mapbox',
  'pusher',
  'sentry',
  'datadog',
  'newrelic',
  'license',
  'licence',
  // An API's client key (`CLIENT_KEY=…`, `clientKey`: review 23).
  'client',
];
/** Key words whose bare values are passwords (no digit needed), as `pass` and `pwd`. */
export const PASSWORD_WORD =
  /pass|pw|mdp|wort|wachtwoord|contrase|senha|parola|пароль|has[łl]o|heslo|[şs]ifre|l[öo]senord|adgangskode|salasana|jelsz[óo]|m[ậa]t[ _-]?kh[ẩa]u|ｐａｓｓｗｏｒｄ|密码|密碼|パスワード|비밀번호|पासवर्ड|كلمة (?:المرور|السر)|رمز عبور|סיסמ[הא]|รหัสผ่าน|κωδικ[όο][σς]|kata[ _-]?sandi/i;

/**
 * Key names whose value is a secret, shared by the text detectors (`password=...`,
 * `"token": "..."`) and the JSON walk (`{"apiKey": ...}`). A key counts when it ENDS with one
 * of them, whatever its separators or case (`DB_PASSWORD`, `clientSecret`, `x-api-key`), so
 * `max_tokens` or `password_reset_url` do not.
 */
export const KEYWORDS = [
  `${ci('password')}[sS]?`,
  // Not sudoers' NOPASSWD (`deploy ALL=(ALL) NOPASSWD: ALL`).
  `(?<![nN][oO])${ci('passwd')}`,
  ci('passphrase'),
  // `pass` and `auth` alone only as their own word (`DB_PASS`, `basicAuth`), not in `bypass`,
  // `compass` or `oauth`.
  `(?<!(?<!\\\\)[A-Za-z])${ci('pass')}`,
  '(?<=[a-z])Pass',
  // sshpass -e reads SSHPASS (`SSHPASS=S3cret sshpass -e ssh host`).
  ci('sshpass'),
  `(?<!(?<!\\\\)[A-Za-z])${ci('auth')}`,
  '(?<=[a-z])Auth',
  ci('pwd'),
  // `pw` as its own word (`DB_PW`, `pw = "…"`, `dbPw`) and a personal access token
  // (`GITHUB_PAT`, `AZURE_DEVOPS_PAT`; not `compat`): review r17 M4.
  `(?<!(?<!\\\\)[A-Za-z])${ci('pw')}`,
  '(?<=[a-z])Pw',
  `(?<=[_-])${ci('pat')}`,
  `${ci('secret')}[sS]?`,
  ci('token'),
  // Plural only after a word that makes it a credential: `max_tokens`, `input_tokens` count.
  `(?:${ci('access')}|${ci('refresh')}|${ci('auth')}|${ci('api')}|${ci('session')})[_-]?${ci('tokens')}`,
  `${ci('credential')}[sS]?`,
  `${ci('cookie')}[sS]?`,
  `${ci('api')}[_-]?${ci('key')}[sS]?`,
  `${ci('access')}[_-]?${ci('key')}[sS]?`,
  `${ci('private')}[_-]?${ci('key')}[sS]?`,
  // A service account's `private_key_id` (Google's JSON key file): it names the key to revoke.
  `${ci('private')}[_-]?${ci('key')}[_-]${ci('id')}`,
  // `masterKey` (Parse, Cosmos DB's primaryMasterKey), `shared_key`, `signing_key`.
  `(?:${ci('master')}|${ci('admin')}|${ci('shared')}|${ci('signing')}|${ci('encryption')}|${ci('hmac')}|${ci('jwt')}|${ci('subscription')})[_-]?${ci('key')}[sS]?`,
  // Services' keys by name (`OPENAI_KEY`, `stripeKey`, `SUPABASE_SERVICE_ROLE_KEY`,
  // `LICENSE_KEY`): `_key` alone also names sort, partition, cache and object keys.
  `(?:${SERVICES.map(ci).join('|')}|${ci('service')}[_-]?${ci('role')})[_-]?${ci('key')}[sS]?`,
  // Laravel's APP_KEY (with its separator: `appkey` is no name people use), Kubernetes'
  // `.dockerconfigjson` and `.dockercfg` (registry credentials, base64).
  `(?<![A-Za-z])${ci('app')}[_-]${ci('key')}`,
  // A keystore's, a smart card's or a SIM's PIN (`KEYSTORE_PIN`, `pkcs11_pin`; review 19): not
  // `pin` alone (`pin: true`, a pinned version) nor `spin`.
  `(?:${ci('keystore')}|${ci('truststore')}|${ci('store')}|${ci('key')}|${ci('sim')}|${ci('pkcs11')}|${ci('smartcard')}|${ci('card')})[_-]?${ci('pin')}`,
  `${ci('dockerconfigjson')}|${ci('dockercfg')}`,
  // `pin` as its own word (`"pin": "482913"`, `user_pin`, review 23), its value a PIN only
  // (acceptAssignment: `pin: true`, `"pin": "v1.2"`, a board's `pin: 13` stay).
  `(?<![A-Za-z])${ci('pin')}`,
  // `pinCode`, `pin_code` (a PIN, as `pin`), `passcode` (review 24: `{"pinCode": "839201"}`,
  // `{"passcode": "…"}` were served clear).
  `(?<![A-Za-z])${ci('pin')}[_-]?${ci('code')}`,
  ci('passcode'),
  // A one-time code (`{"otp": "839205"}`, `totp`, `mfa_code`; review 24), its value a code only
  // (acceptAssignment, as a PIN's).
  `(?<![A-Za-z])[tT]?${ci('otp')}|${ci('mfa')}[_-]?${ci('code')}`,
  // A bearer token's own key (`"bearer": "…"`, `auth: { bearer: … }`: review 23).
  `(?<![A-Za-z])${ci('bearer')}`,
  // The word for password in other languages (VOTRE_MDP, motDePasse, mot_de_passe, Passwort...).
  ...FOREIGN_PASSWORDS,
].join('|');
/**
 * Words that may follow a secret's name and keep it one (KEY_SUFFIX): a confirmation, a
 * database's, a generation's or an environment's. Not `hint`, `length`, `policy`, `reset`,
 * `count`, `less`: those name something about the secret, not the secret (review r14 M2).
 */
export const KEY_TAILS = [
  'confirmation',
  'confirm',
  'again',
  'repeat',
  'retype',
  'db',
  'database',
  'current',
  'previous',
  'prev',
  'old',
  'new',
  'prod',
  'production',
  'dev',
  'staging',
  'test',
  'live',
  'local',
  'backup',
  // Review r15's lows (r16 L): more environments' and an account's (`DB_PASSWORD_QA`,
  // `db_password_stg`, `MYSQL_PASSWORD_ROOT`).
  'qa',
  'uat',
  'stg',
  'prd',
  'admin',
  'root',
  // `new` in German, Spanish, Italian, Portuguese and French, as `newPassword`'s is read
  // (review r19: `passwortNeu`, `contraseñaNueva` were clear where `passwordNew` is masked).
  'neu',
  'nueva',
  'nuevo',
  'nuova',
  'nuovo',
  'nova',
  'novo',
  'nouveau',
];
/**
 * `SECRET_KEY`, `secret_access_key`, `SECRET_KEY_BASE`, `SecretString` (AWS Secrets Manager),
 * `password_value`, `PASSWORD_SALT` and `AUTH_SALT` (review 25: a salt kept secret), and a version or a number after it: `ses_smtp_password_v4`, `db_password_2`,
 * and an environment: `db_password_prod`.
 */
export const KEY_SUFFIX =
  `(?:[_-]?(?:${ci('access')}[_-]?)?${ci('key')})?(?:[_-]?${ci('base')})?` +
  `(?:[_-]?(?:${ci('string')}|${ci('value')}|${ci('salt')}))?` +
  // A second entry of a form or a number (`password2`, Django's signup form; `DB_PASSWORD2`,
  // `api_key2`; up to four digits, a year's: `password_2026`, `API_KEY_2024`, review r15),
  // a confirmation (`passwordConfirm`, `password_confirmation`, `password_again`),
  // a database's (`password_db`), a generation's or an environment's name (`root_password_old`,
  // `db_password_prod`): up to two of them, with or without a separator (review r14 M2).
  `(?:(?:[_-]?[vV]?\\d{1,5}|[_-]?(?:${KEY_TAILS.map(ci).join('|')})(?![a-z]))){0,2}`;
/**
 * Between the key name and the separator: closing quotes (maybe escaped), the bracket of an
 * index (`os.environ["DB_PASSWORD"] = …`, `ENV["SECRET_KEY_BASE"] = …`) and blanks.
 */
export const KEY_CLOSE = `["'\\\\\\]]*[ \\t]*`;
export const AUTHZ = ci('authorization');
/** `Cookie`, `Set-Cookie`: their values are name=value pairs. */
export const COOKIE = `(?<![A-Za-z])${ci('cookie')}[sS]?`;

/**
 * Values that are code or placeholders, not secrets: types, literals, keywords (quoted
 * too: `"password": "string"` in a schema example is a placeholder), fetch's `credentials`.
 */
export const NOT_SECRETS = new Set(
  (
    'null none nil undefined true false yes no string str number int integer float bool ' +
    'boolean any unknown bytes object optional required secret password passwd token pwd ' +
    'await new this self typeof function async yield return const let var void env changeme ' +
    'include omit same-origin'
  ).split(' '),
);
/**
 * A form's messages in other languages, as NOT_SECRETS' `required`/`optional` (review r14 M4:
 * `contraseña: requerida`, `パスワード: 必須`, `Passwort: erforderlich` were masked where
 * `password: required` is not). Lower case; a value's final `.`/`!` is left out.
 */
const REQUIRED_WORDS = new Set(
  [
    'requerida requerido obligatoria obligatorio necesaria necesario opcional incorrecta incorrecto',
    'obligatoire requis requise nécessaire facultatif facultative optionnel optionnelle incorrect',
    'obrigatória obrigatório obrigatoria obrigatorio necessária necessário',
    'obbligatoria obbligatorio richiesta richiesto facoltativo facoltativa',
    'erforderlich pflichtfeld pflicht benötigt notwendig optional falsch ungültig',
    'verplicht vereist verplichte',
    'обязательно обязательный обязательное обязательна обязательная требуется необязательно неверный',
    'wymagane wymagany wymagana obowiązkowe obowiązkowy',
    'povinné povinný povinná vyžadováno vyžadované',
    'kötelező szükséges',
    'zorunlu gerekli gereklidir',
    'obligatoriskt obligatorisk krävs påkrævet påkrevd pakollinen vaaditaan',
    '必須 必須です 必須項目 必填 必填项 必填項 必须 必需 필수 필수입니다 필수항목 任意 선택',
    // Review r17's languages: Hindi, Arabic, Persian, Hebrew, Thai, Greek, Indonesian.
    'आवश्यक अनिवार्य वैकल्पिक مطلوب مطلوبة إلزامي اختياري الزامی ضروری اختیاری',
    'נדרש נדרשת חובה רשות จำเป็น ต้องระบุ απαιτείται υποχρεωτικό προαιρετικό',
    'wajib diperlukan dibutuhkan opsional',
    // A field's state as a form or a log shows it (review r17 L: `Password: Weak`, `password:
    // expired`, `Password: Changed` were masked and counted).
    'weak strong ok okay show hide hidden shown expired set unset valid invalid disabled',
    'enabled unchanged saved verified match matches mismatch changed confirmed reset locked',
    'unlocked updated',
  ]
    .join(' ')
    .split(' '),
);
const FINAL_STOP = /[.!。！]+$/;

/**
 * Whether a value is a form's word in another language (`requerida`, `必須`) or a field's state
 * (`Weak`, `expired`): REQUIRED_WORDS.
 */
export function requiredWord(value: string): boolean {
  return value.length <= 16 && REQUIRED_WORDS.has(value.replace(FINAL_STOP, '').toLowerCase());
}
const REFERENCE = /^(?:\$|%\w+%$|\{\{)/;
/**
 * printf's placeholders, not a value (review r12: `fmt.Printf("password: %s\n", pw)`): `%s`,
 * `%v`, `%+v`, `%-10s`, `%.2f`, `%lu`, one or more; positional (`%1$s`: Java's String.format,
 * POSIX printf) and `%%s` (a template formatted twice) too (review r13).
 */
const FORMAT_SPECIFIERS =
  /^(?:%%?(?:\d{1,2}\$)?[-+ #0]?(?:\d{1,3}|\*)?(?:\.(?:\d{1,3}|\*))?(?:hh?|ll?|[Lqjzt])?[a-zA-Z])+$/;

/** Whether a value is nothing but printf placeholders (`%s`, `%1$s`, `%-10s`). */
export function formatPlaceholder(value: string): boolean {
  return value.charCodeAt(0) === 0x25 && FORMAT_SPECIFIERS.test(value);
}
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const LOWER_IDENTIFIER = /^[a-z_$][\w$]*$/;
/** A letter, digits, a letter: `w0rd`, `Sb12Cd` (code's names put digits last: `sha256`, `v2`). */
const DIGITS_INSIDE = /[A-Za-z]\d+[A-Za-z]/;
/**
 * A dotted value that is a password, not a member path (review 20: `DB_PASSWORD=Pa55.w0rdQz1aa`,
 * `SECRET_KEY=Sb12Cd34.Ef56Gh78`, `DOPPLER_TOKEN=dp.st.prd.Tb12…` were read as code and served
 * clear): digits inside a word, two runs of digits or more, and both cases. `os.environ`,
 * `settings.SECRET_KEY`, `base64.b64encode`, `self.password`, `s3Client.config` are code.
 */
function generatedPath(value: string): boolean {
  if (!DIGITS_INSIDE.test(value) || !/[a-z]/.test(value) || !/[A-Z]/.test(value)) return false;
  // Two runs of digits: one is a name's (`s3Client.config`, `Http2Client.DEFAULT_TOKEN`).
  return (value.match(DIGIT_RUNS) ?? []).length >= 2;
}
const DIGIT_RUNS = /\d+/g;
const CAMEL_IDENTIFIER = /^[a-z]+(?:[A-Z][a-z]+)+$/;
const HEX_LITERAL = /^0[xX][0-9a-fA-F]+$/;
/**
 * A file's path, not its content: `GOOGLE_APPLICATION_CREDENTIALS=/keys/sa.json`,
 * `SSL_KEY=./certs/server.key` (the file may hold a secret; its name does not).
 */
const KEY_FILE_PATH =
  /^(?:~|\.{1,2})?\/?(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:json|pem|key|p12|pfx|crt|cer|der|jks|keystore|ppk|txt|ya?ml|env|ini|conf|cfg)$/i;
/** Placeholders: `YOUR_PASSWORD_HERE`, `your-api-key`, `xxxxxxxx`, `########`. */
/**
 * Not the value but where it comes from (review r19): a token a build replaces
 * (`password=@@DB_PASSWORD@@`), a YAML tag alone (Ansible's `password: !vault |`, whose block
 * below is ciphertext; CloudFormation's `!Ref DbPassword`, read to the line's end as a
 * configuration line's value is).
 */
const STAND_IN =
  /^(?:@@[\w.-]{1,64}@@|!(?:vault|Ref|Sub|GetAtt|ImportValue|FindInMap)(?:[ \t][^\n]*)?)$/;
const PLACEHOLDER = /^(?:your[\W_]?[A-Za-z_-]*|[A-Za-z_-]*[_-]here|([xX*#.-])\1{3,})$/i;

/**
 * A value that stands for a password rather than being one: the word itself, a placeholder
 * (`your_password`, `xxxx`, `<password>`). `postgres://user:password@localhost` in a README
 * masked every later "password" of its text as an echo (review 11, M1).
 */
export function placeholderPassword(value: string): boolean {
  return (
    PLACEHOLDER_WORDS.has(value.toLowerCase()) ||
    PLACEHOLDER.test(value) ||
    /^<[^<>]+>$/.test(value)
  );
}
/** A PowerShell cmdlet's Verb-Noun name with one of the verbs that read or make a secret. */
const CMDLET =
  /^(?:Get|Set|Read|New|ConvertTo|ConvertFrom|Import|Export|Invoke|Unprotect|Protect)-[A-Z][A-Za-z]+$/;
const PLACEHOLDER_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'changeme']);

const PIN = /^(?:pin(?:[_-]?code)?|t?otp|mfa[_-]?code)$/i;
const PIN_VALUE = /^\d{4,8}$/;
/** An example PIN (`1234`, `0000`, `987654`: review 19 kept `PIN=1234` clear): one step apart. */
function examplePin(value: string): boolean {
  const step = value.charCodeAt(1) - value.charCodeAt(0);
  if (step < -1 || step > 1) return false;
  for (let i = 2; i < value.length; i++) {
    if (value.charCodeAt(i) - value.charCodeAt(i - 1) !== step) return false;
  }
  return true;
}

/**
 * Whether an assigned value is masked. Not: placeholders (NOT_SECRETS, `****`), references
 * (`$VAR`, `${{ secrets.X }}`, `%VAR%`, `{{ .Values.x }}`), markers; and when unquoted, code:
 * calls and indexing (`getPassword()`, `tokens[i]`), the key name itself
 * (`password = password`), member paths (`process.env.X`), identifiers built on the key name
 * (`hashedPassword`, `nextToken`), and paths after `PWD=`. `envKey`: the key is an UPPER_CASE
 * variable assigned with `=`, whose bare value needs no digit.
 */
export function acceptAssignment(
  keyword: string,
  value: string,
  quoted: boolean,
  next: string,
  envKey = false,
): boolean {
  if (!quoted && (next === '(' || next === '[')) return false;
  // A PIN is 4 to 8 digits (review 23): `pin` alone names pins of boards and versions too.
  if (keyword.length >= 3 && keyword.length <= 8 && PIN.test(keyword))
    return PIN_VALUE.test(value) && !examplePin(value);
  const c = value[0];
  const special = c === '$' || c === '%' || c === '{' || c === '[';
  if (special && (REFERENCE.test(value) || value.startsWith(REDACTED))) return false;
  if (c === '%' && FORMAT_SPECIFIERS.test(value)) return false;
  if (value.length <= 11 && NOT_SECRETS.has(value.toLowerCase())) return false;
  // `Password: Required.`, `password: required!` (review r15 L7), as `password: required`.
  if (
    value.length <= 13 &&
    FINAL_STOP.test(value) &&
    NOT_SECRETS.has(value.replace(FINAL_STOP, '').toLowerCase())
  )
    return false;
  if (requiredWord(value)) return false;
  if ((c === '@' || c === '!') && STAND_IN.test(value)) return false;
  if (PLACEHOLDER.test(value) || (value.includes('.') && KEY_FILE_PATH.test(value))) return false;
  // A letter or digit of any script (`"секрет"`), not only punctuation (`****`).
  if (!/[\p{L}\p{N}]/u.test(value)) return false;
  if (quoted) return true;
  // A PowerShell cmdlet is code (`$pw = ConvertTo-SecureString "…"`, `$pass = Read-Host`).
  if (CMDLET.test(value)) return false;
  // Bare values after the looser key words (token, secret, api key...) must look generated:
  // prose like `Refresh Token: Refresh` or `refresh_token:1` is not a secret.
  // An UPPER_CASE variable assigned with `=` (`API_KEY=...` in .env) is configuration, not prose.
  const passwordKey = envKey || PASSWORD_WORD.test(keyword);
  if (
    !passwordKey &&
    value.length < 20 &&
    !(value.length >= 6 && /\d/.test(value)) &&
    !randomLetters(value)
  )
    return false;
  // Code, not a generated value: `indentToken = lastTriviaWasNewLine && …`, `…_PASS: 0x0B96`.
  if (!passwordKey && CAMEL_IDENTIFIER.test(value)) return false;
  // But 32 bytes of hex are a key (`PRIVATE_KEY=0x…`, a wallet's: review 19), not a constant.
  if (HEX_LITERAL.test(value) && value.length !== 66) return false;
  if (value.length === keyword.length && value.toLowerCase() === keyword.toLowerCase()) {
    return false;
  }
  if (value.includes('.') && MEMBER_PATH.test(value) && !generatedPath(value)) return false;
  const cap = keyword[0].toUpperCase() + keyword.slice(1).toLowerCase();
  if (value.includes(cap) && LOWER_IDENTIFIER.test(value)) return false;
  if ((c === '/' || c === '~' || c === '.') && /^pwd$/i.test(keyword)) return false;
  return true;
}

/** How a JSON value under a secret-named key is masked (see ./json). */
export interface KeyRule {
  /** The key word matched (`password`, `Token`...), for acceptAssignment. */
  keyword: string;
  /** `password`; `bearer` for Authorization (the scheme stays); `cookie`. */
  kind: 'password' | 'bearer' | 'cookie';
}

/** An authorization scheme before a value (`Bearer …`): 1 it and the blanks after it, 2 its word. */
const SCHEME = /^([ \t]*(bearer|basic|token|digest|negotiate|apikey)[ \t]+)\S/i;

/**
 * Where the mask of a value under `rule` starts, and its kind: an Authorization value keeps
 * its scheme (`Bearer [REDACTED:bearer]`, `Basic [REDACTED:basic-auth]`), in a parsed JSON
 * value (./json) as in a JSON text's name/value pair (./json-fields, ./env-lists).
 */
export function ruleStart(rule: KeyRule, value: string): { start: number; kind: string } {
  if (rule.kind !== 'bearer') return { start: 0, kind: rule.kind };
  const m = SCHEME.exec(value);
  if (!m) return { start: 0, kind: rule.kind };
  return { start: m[1].length, kind: m[2].toLowerCase() === 'basic' ? 'basic-auth' : rule.kind };
}

const SECRET_KEY = new RegExp(`(?:(${KEYWORDS})${KEY_SUFFIX}|(${AUTHZ}))$`);
/**
 * The last character, lower case, of every key SECRET_KEY matches: the cheap first test of
 * secretKey here and of the assignment triggers (./assignments KEY_LAST_CODES). One list, so a
 * new key word's ending is added once (review r17's languages were added to two copies).
 */
export const KEY_LAST_CHARS = 'destnylhpaogvwumbiórｄь码碼ド호ड्رהאนςσ0123456789';
/** KEY_LAST_CHARS in either case (a JSON key is not lowered before the test). */
const LAST = new Set(
  [...KEY_LAST_CHARS, ...KEY_LAST_CHARS.toUpperCase()].map((c) => c.charCodeAt(0)),
);

const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})/g;
const INVISIBLE = /\u034f|[\u00ad\u200b-\u200d\u2060\ufeff]/g;
const unescapeUnicode = (_m: string, hex: string) => String.fromCharCode(parseInt(hex, 16));

/** Keys already judged: a few names repeat in every record (bounded, emptied when full). */
const JUDGED = new Map<string, KeyRule | null>();
const JUDGED_MAX = 4096;

/** The rule for a JSON object key, or null when the key does not name a secret. */
export function secretKey(key: string): KeyRule | null {
  // A key holding `\u` escapes as text (`pass\u0077ord`, JSON written inside a string) names
  // what it spells (review r15 H1).
  if (key.includes('\\u')) key = key.replace(UNICODE_ESCAPE, unescapeUnicode);
  if (key.length < 3) return null;
  const last = key.charCodeAt(key.length - 1);
  // A mark (>= U+0300) may end a key written decomposed (`jelszo` + U+0301).
  if (!LAST.has(last) && !(last >= 0x300 && MARK.test(key))) return null;
  let rule = JUDGED.get(key);
  if (rule !== undefined) return rule;
  // A key written decomposed (`contrasen` + U+0303 + `a`) names what its composed form names.
  // Long keys name no secret: NFC of a long mark run is quadratic (review r14).
  // An invisible character spells nothing (review r16 L: `"pass\u200bword"` decoded).
  const nfc = key.length <= 128 && MARK.test(key) ? key.normalize('NFC') : key;
  const name = nfc.replace(INVISIBLE, '');
  const m = LAST.has(name.charCodeAt(name.length - 1)) ? SECRET_KEY.exec(name) : null;
  rule =
    m === null
      ? null
      : m[2] !== undefined
        ? { keyword: m[2], kind: 'bearer' }
        : { keyword: m[1], kind: /^cookies?$/i.test(m[1]) ? 'cookie' : 'password' };
  if (JUDGED.size >= JUDGED_MAX) JUDGED.clear();
  JUDGED.set(key, rule);
  return rule;
}

/** A key name's character: letters, digits, `_`, `.`, `-` (`db.password`, `api-key`). */
export function nameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

import type { Detector } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- passwords typed into a password field by browser automation --------------------------------

/**
 * Methods that type a value into a field: Playwright and Puppeteer `fill`/`type`, Selenium
 * `send_keys`/`sendKeys`, WebdriverIO `setValue`, Cypress `type`, Codeception `fillField`.
 */
const METHOD = /(?:fill|type|send_keys|sendKeys|setValue|fillField|pressSequentially)\($/;
/** fireEvent's `change` (only with FIELD_VALUE's `{ target: { value } }`). */
const CHANGE = /[.\s]change\($/;
/** A selector or label naming a password field (any of KEYWORDS' password words). */
const PASSWORD_FIELD =
  /pass(?:word|wd)?|pwd|mdp|mot[_ -]?de[_ -]?passe|passwort|kennwort|wachtwoord|contrase(?:ñ|n)a|senha|parola|пароль|has[łl]o|heslo|[şs]ifre|l[öo]senord|passord|adgangskode|salasana/i;
/** A quoted argument (maybe JSON-escaped quotes): 1 its quote, 2 its text. */
const QUOTED = `\\\\*(["'\`])((?:(?!\\1)[^\\\\\\r\\n]){1,${VALUE_MAX}})\\\\*\\1`;
/**
 * A quoted selector, which may hold escaped quotes (`"input[name=\\"password\\"]"`, review
 * r19 M4: it was read to its first backslash and the value after it served clear): 1 its
 * quote, 2 its text, the shortest that a `,` follows, at most SELECTOR_MAX (in a JSON line every
 * quote is escaped: each `fill(` would read VALUE_MAX for its comma).
 */
const SELECTOR_MAX = 256;
const SELECTOR_ARG = `\\\\*(["'\`])((?:(?!\\1)[^\\\\\\r\\n]|\\\\[^\\r\\n]){1,${SELECTOR_MAX}}?)\\\\*\\1`;
/** `(selector, value` or `(value` (the selector then comes before, on the same line). */
const TWO_ARGS = new RegExp(
  `\\([ \\t]*${SELECTOR_ARG}[ \\t]*,[ \\t]*${QUOTED.replace(/\\1/g, '\\3')}`,
  'y',
);
/**
 * `(passwordInput, "…"`, `(screen.getByLabelText(/password/i), "…"`, and React Testing
 * Library's `fireEvent.change(passwordInput, { target: { value: "…" } })` (review r19 M4): 1
 * the field's expression (a name, a member path, a call of one), then the value (3, its quote 2).
 */
const FIELD_VALUE = new RegExp(
  `\\([ \\t]*([\\w$.]{1,80}(?:\\([^()\\r\\n]{0,120}\\))?)[ \\t]*,[ \\t]*` +
    `(?:\\{[ \\t]*target[ \\t]*:[ \\t]*\\{[ \\t]*value[ \\t]*:[ \\t]*)?${QUOTED.replace(/\\1/g, '\\2')}`,
  'y',
);
/** user-event's special keys (`{enter}`, `{selectall}`): no text typed. */
const SPECIAL_KEYS = /^\{[^{}]*\}$/;
const ONE_ARG = new RegExp(`\\([ \\t]*${QUOTED}[ \\t]*[,)]`, 'y');
/** How far before the method a chained call's selector is looked for. */
const REACH = 240;
/** A quoted selector naming a password field (`#password`, `input[name="pwd"]`). */
const SELECTOR = /(["'`])[^"'`\r\n]{0,200}?\1/g;

function namesPasswordField(selector: string): boolean {
  return PASSWORD_FIELD.test(selector);
}

/** Whether the call at `at` follows a password field's selector on the same statement. */
function chainedOnPasswordField(text: string, at: number): boolean {
  let from = Math.max(0, at - REACH);
  const nl = Math.max(text.lastIndexOf('\n', at), text.lastIndexOf(';', at));
  if (nl >= from) from = nl + 1;
  const before = text.slice(from, at);
  for (const m of before.matchAll(SELECTOR)) if (namesPasswordField(m[0])) return true;
  return false;
}

/**
 * `page.fill('input[name="password"]', "S3cret")`, `page.type('#pwd', 'S3cret')`,
 * `driver.find_element(By.NAME, "password").send_keys("S3cret")`,
 * `cy.get('#password').type('S3cret')`: the quoted value typed into a field whose selector
 * names a password. Variables and placeholders stay (acceptAssignment).
 */
export const browserPassword: Detector = {
  kind: 'password',
  anchors: '(',
  trigger: '', // callSecret's: one look-behind for every call the detectors read
  find(text, at, _state, out) {
    const head = text.slice(Math.max(0, at - 18), at + 1);
    const change = CHANGE.test(head);
    if (!change && !METHOD.test(head)) return -1;
    TWO_ARGS.lastIndex = at;
    const two = change ? null : TWO_ARGS.exec(text);
    FIELD_VALUE.lastIndex = at;
    const field = two ? null : FIELD_VALUE.exec(text);
    let value: string | undefined;
    let end = -1;
    if (two && namesPasswordField(two[2])) {
      [value, end] = [two[4], TWO_ARGS.lastIndex];
    } else if (field && namesPasswordField(field[1]) && (!change || field[0].includes('target'))) {
      [value, end] = [field[3], FIELD_VALUE.lastIndex];
      if (SPECIAL_KEYS.test(value)) return end;
    } else if (!change) {
      ONE_ARG.lastIndex = at;
      const one = ONE_ARG.exec(text);
      if (one && chainedOnPasswordField(text, at)) [value, end] = [one[2], ONE_ARG.lastIndex];
    }
    if (value === undefined) return -1;
    const valueEnd = text.lastIndexOf(value, end) + value.length;
    if (acceptAssignment('password', value, true, '')) {
      out.push({ start: valueEnd - value.length, end: valueEnd, kind: 'password' });
    }
    return valueEnd;
  },
};

// --- a password field's value in saved HTML -------------------------------------------------------

/** One attribute of a tag: 1 name, then the value (maybe JSON-escaped quotes) in 2, 3 or 4. */
const ATTRIBUTE =
  /([\w:-]+)[ \t]*=[ \t]*(?:\\*"([^"\\\r\n]*)\\*"|\\*'([^'\\\r\n]*)\\*'|([^\s"'\\>]+))/g;
/** How far an `<input` tag is read for its attributes. */
const TAG_MAX = 2048;
/** The tags this detector reads (its trigger's names): the scan runs it at every `<` it finds. */
const HTML_TAG =
  /<(?:[iI][nN][pP][uU][tT]|[pP]roperty|[aA]dd|[pP]aram(?:eter)?|[eE]ntry|[sS]etting)[\s/]/y;

/**
 * `<input type="password" value="S3cret">`, `<input name="pwd" value='S3cret'>`,
 * `<input type="hidden" name="api_key" value="…">`: the value of an input that is a password
 * field (by its type, or its name, id or autocomplete naming a password) or whose name is a
 * secret's (the key names of ./keys) in a page an agent saved or printed. Placeholders stay (acceptAssignment).
 */
export const htmlPasswordValue: Detector = {
  kind: 'password',
  anchors: '<',
  // <input>, and the configuration tags that name a value: <property name= value=> (Spring,
  // Ant, Hibernate), <add key= value=> (.NET), <param>, <entry>, <setting>, <parameter>.
  trigger:
    '<(?=(?:[iI][nN][pP][uU][tT]|[pP]roperty|[aA]dd|[pP]aram(?:eter)?|[eE]ntry|[sS]etting)[\\s/])',
  find(text, at, _state, out) {
    // The scan runs every detector of `<` at each `<` any of them triggers on (`<password`
    // is xmlSecretElement's): read no other tag (review r17 M1: `<password a="x" ` repeated
    // cost 2 KB of attribute matching per 16 bytes).
    HTML_TAG.lastIndex = at;
    if (!HTML_TAG.test(text)) return -1;
    // The `>` is looked for within TAG_MAX only: indexOf to the text's end from every tag of a
    // text without `>` is quadratic.
    const head = text.slice(at, at + TAG_MAX);
    const close = head.indexOf('>');
    const end = at + (close < 0 ? head.length : close);
    const tag = text.slice(at, end);
    let field = false;
    let value: { start: number; text: string } | null = null;
    for (const m of tag.matchAll(ATTRIBUTE)) {
      const name = m[1].toLowerCase();
      const v = m[2] ?? m[3] ?? m[4] ?? '';
      if (name === 'type' && v.toLowerCase() === 'password') field = true;
      else if (
        (name === 'name' || name === 'id' || name === 'autocomplete' || name === 'key') &&
        (PASSWORD_FIELD.test(v) || secretKey(v) !== null)
      )
        field = true;
      else if (name === 'value' && v !== '') {
        // The value is the last occurrence of its text within its attribute (escaped quotes
        // may stand between it and the attribute's end).
        value = { start: text.lastIndexOf(v, at + (m.index ?? 0) + m[0].length), text: v };
      }
    }
    // A tag not a password field's is read once: the tags that start inside it (`<input a="x" `
    // repeated, no `>`) have their attributes among its own (review r17 M1).
    if (!field || !value || !acceptAssignment('password', value.text, true, '')) return end;
    out.push({ start: value.start, end: value.start + value.text.length, kind: 'password' });
    return value.start + value.text.length;
  },
};

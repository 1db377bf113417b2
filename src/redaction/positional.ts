import { REDACTED, type Detector, type Span } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- secrets given as a command's positional arguments ------------------------------------------

/** Options between the command words and the arguments: `--location=user`, `-H`, `/M`. */
const OPTIONS = `(?:[ \\t]+(?:-{1,2}[\\w-]+(?:=[^\\s"'\`]*)?|/[A-Za-z]))*`;
/** A quoted or bare argument, groups: 'x', "x", bare. */
const arg = `(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})'|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})"|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`;
/** An argument that is not captured. */
const ANY = `(?:'[^'\\r\\n]{0,1024}'|"[^"\\r\\n]{0,1024}"|[^\\s"'\`;&|<>()]{1,1024})`;

interface Found {
  text: string;
  quoted: boolean;
  end: number;
}
/** The argument in groups `g`, `g+1`, `g+2` of `m`, ending the match at `end`. */
function argAt(m: RegExpExecArray, g: number, end: number): Found {
  const quoted = m[g + 2] === undefined;
  const text = m[g] ?? m[g + 1] ?? m[g + 2];
  return { text, quoted, end: quoted ? end - 1 : end };
}
const reference = (v: string) => v.startsWith('$') || v.startsWith('%') || v.startsWith(REDACTED);

/**
 * A value set under a secret-named key (the names of ./keys): pushes its span if it is one.
 * `loose`: a bare value needs no digit (the command sets configuration, as `API_KEY=` does).
 */
function keyedValue(key: string, value: Found, next: string, out: Span[]) {
  const rule = secretKey(key);
  if (!rule || reference(value.text)) return;
  if (!acceptAssignment(rule.keyword, value.text, value.quoted, next, true)) return;
  const aws = /secret_access_key$/i.test(key) && /^[A-Za-z0-9/+=]{40}$/.test(value.text);
  const kind = aws ? 'aws-secret-key' : rule.kind;
  out.push({ start: value.end - value.text.length, end: value.end, kind });
}

/** `config set KEY VALUE`, `configure set …` (npm, yarn, pnpm, aws, gcloud). */
const CONFIG_SET = new RegExp(`set${OPTIONS}[ \\t]+${arg}[ \\t]+${arg}`, 'y');
/** `setx KEY VALUE` (Windows), `set -x KEY VALUE`, `set -gx …` (fish). */
const SET_EXPORT = new RegExp(
  `set(?:x|[ \\t]{1,4}-[A-Za-z]{0,3}x[A-Za-z]{0,3})${OPTIONS}[ \\t]+${arg}[ \\t]+${arg}`,
  'y',
);
/** `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (MinIO client; `mc config host add` before). */
const MC_ALIAS = new RegExp(
  `(?:set|host[ \\t]+add)${OPTIONS}(?:[ \\t]+${ANY}){3}[ \\t]+${arg}`,
  'y',
);
/** What comes before `set` (or `host`) at the trigger: which command it is. */
const BEFORE_SET =
  /(?:(?<![\w.-])config(?:ure)?[ \t]+|(?<![\w.-])mc[ \t]+(?:alias|config)[ \t]+|(?<![\w.-]))$/;

/**
 * Values set by commands that take a name and a value, not `NAME=value`: `aws configure set
 * aws_secret_access_key …`, `yarn config set npmAuthToken …`, `npm config set
 * "//registry.example/:_authToken" "…"`, `setx API_KEY …`, `set -gx GITHUB_TOKEN …` (fish):
 * the value of a secret-named setting; `mc alias set NAME URL ACCESS SECRET`: the secret key.
 * Anchored on the `t` of `set`, the one letter the prefilter can afford (see DETECTORS).
 */
export const setCommand: Detector = {
  kind: 'password',
  anchors: 't',
  trigger:
    't(?:(?<=(?<![\\w.-])(?:config(?:ure)?[ \\t]+|mc[ \\t]+alias[ \\t]+)?set)(?=x?[ \\t])' +
    '|(?<=(?<![\\w.-])mc[ \\t]+config[ \\t]+host)(?=[ \\t]+add[ \\t]))',
  find(text, at, _state, out) {
    const host = text.startsWith('host', at - 3);
    const start = host ? at - 3 : at - 2;
    const before = BEFORE_SET.exec(text.slice(Math.max(0, start - 24), start));
    if (!before) return -1;
    const word = before[0].trimEnd();
    const re =
      host || word.startsWith('mc')
        ? MC_ALIAS
        : word.startsWith('config')
          ? CONFIG_SET
          : SET_EXPORT;
    re.lastIndex = start;
    const m = re.exec(text);
    if (!m) return -1;
    if (re === MC_ALIAS) {
      const value = argAt(m, 1, re.lastIndex);
      if (!reference(value.text) && acceptAssignment('secret', value.text, true, '')) {
        out.push({ start: value.end - value.text.length, end: value.end, kind: 'password' });
      }
    } else {
      const key = m[1] ?? m[2] ?? m[3];
      keyedValue(key, argAt(m, 4, re.lastIndex), text[re.lastIndex] ?? '', out);
    }
    return re.lastIndex;
  },
};

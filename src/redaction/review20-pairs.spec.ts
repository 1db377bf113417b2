import { parseLine } from '../brain/transcript/records';
import { Redactor } from './redactor';

/**
 * Review 19/20: a secret split across two keys of one JSON object, a name member and a value
 * member, was masked on one route and served clear on another. (a) Full-tier arguments
 * (`{"Name": "API_TOKEN", "Value": "…"}`, CloudFormation's `ParameterKey`/`ParameterValue`,
 * ECS's and Kubernetes' env lists, an HTTP header as `{"name": "Authorization", "value":
 * "Bearer …"}`): the raw line masked the value, the parsed one (Redactor.redactJson: GraphQL
 * `toolCalls { args }`, REST, exports, search, SSE) served it clear. (b) Compact-tier arguments,
 * whose every value is JSON text (`"value": "\"…\""`): GraphQL decodes them and masked the
 * value, the raw line (/raw, downloads, `brainql raw`, the secrets report's bytes) served it
 * clear; and a cookie under `"cookies"` (masked parsed, clear raw). Each case is checked in
 * every form: the raw JSON line's text, its bytes masked in place, the arguments as a decoded
 * text (compact and pretty-printed), JSON inside JSON, and the parsed path against the text
 * path (the arguments GraphQL serves, parsed from the line and redacted, equal those parsed
 * from the redacted line).
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9Vq7Hunter2z';
const P = '[REDACTED:password]';
const B = '[REDACTED:bearer]';
const C = '[REDACTED:cookie]';
/** A compact-tier argument value: JSON text. */
const q = (s: string): string => JSON.stringify(s);

/** A transcript line holding one tool call with `args`. */
const line = (args: unknown): string =>
  JSON.stringify({
    step_index: 1,
    type: 'PLANNER_RESPONSE',
    tool_calls: [{ name: 'browser_fill', args }],
  });
/** The arguments as a compact argument's JSON text: JSON inside JSON. */
const nested = (args: unknown): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify(args) } }] });

function bytes(raw: string): string {
  const b = Buffer.from(raw);
  r.maskUtf8(b);
  return b.toString();
}

/** `raw` with the one mask `masked` shows overwritten at the same length (as maskUtf8 does). */
function sameLength(raw: string, masked: string): string {
  const at = masked.indexOf('[REDACTED:');
  const close = masked.indexOf(']', at) + 1;
  const tail = masked.length - close;
  const length = raw.length - tail - at;
  const mark = masked.slice(at, close).slice(0, length).padEnd(length, '*');
  return raw.slice(0, at) + mark + raw.slice(raw.length - tail);
}

/** The arguments GraphQL reads from a line (compact values JSON-decoded). */
function parsedArgs(raw: string, compact: boolean): Record<string, unknown> {
  const v = parseLine(Buffer.from(raw), compact, 0, 1);
  if (v.kind !== 'record') throw new Error(`not a record: ${raw}`);
  return v.record.toolCalls[0].args;
}

/** [label, compact tier, the arguments as the line stores them, the same redacted]. */
const CASES: [string, boolean, Record<string, unknown>, Record<string, unknown>][] = [
  // (a) full tier: clear parsed, masked raw.
  ['ECS Name/Value', false, { Name: 'API_TOKEN', Value: V }, { Name: 'API_TOKEN', Value: P }],
  ['name/value', false, { name: 'GITHUB_TOKEN', value: V }, { name: 'GITHUB_TOKEN', value: P }],
  [
    'CloudFormation parameter',
    false,
    { ParameterKey: 'DbPassword', ParameterValue: V },
    { ParameterKey: 'DbPassword', ParameterValue: P },
  ],
  [
    'CloudFormation Parameters list',
    false,
    {
      StackName: 'app',
      Parameters: [
        { ParameterKey: 'Env', ParameterValue: 'prod' },
        { ParameterKey: 'DbPassword', ParameterValue: V },
      ],
    },
    {
      StackName: 'app',
      Parameters: [
        { ParameterKey: 'Env', ParameterValue: 'prod' },
        { ParameterKey: 'DbPassword', ParameterValue: P },
      ],
    },
  ],
  [
    'ECS Environment',
    false,
    {
      Environment: [
        { Name: 'DB_PASSWORD', Value: V },
        { Name: 'Region', Value: 'eu-west-1' },
      ],
    },
    {
      Environment: [
        { Name: 'DB_PASSWORD', Value: P },
        { Name: 'Region', Value: 'eu-west-1' },
      ],
    },
  ],
  [
    // (`{"name": "DB_PASSWORD", "value": …}` was masked parsed already, as a password field's.)
    'Kubernetes env',
    false,
    {
      env: [
        { name: 'DB_USER', value: 'app' },
        { name: 'STRIPE_API_KEY', value: V },
      ],
    },
    {
      env: [
        { name: 'DB_USER', value: 'app' },
        { name: 'STRIPE_API_KEY', value: P },
      ],
    },
  ],
  [
    'HTTP header',
    false,
    { headers: [{ name: 'Authorization', value: `Bearer ${V}` }] },
    { headers: [{ name: 'Authorization', value: `Bearer ${B}` }] },
  ],
  [
    'Postman header (the scheme stays, as parsed)',
    false,
    { header: [{ key: 'Authorization', value: `Bearer ${V}` }] },
    { header: [{ key: 'Authorization', value: `Bearer ${B}` }] },
  ],
  [
    'a nested object between the name and the value (clear in both)',
    false,
    { name: 'API_TOKEN', tags: { team: 'web' }, value: V },
    { name: 'API_TOKEN', tags: { team: 'web' }, value: P },
  ],
  [
    'a key naming no secret beside a password field (clear parsed)',
    false,
    { key: 'login', selector: '#password', value: V },
    { key: 'login', selector: '#password', value: P },
  ],
  // (b) compact tier: masked parsed, clear raw.
  [
    'compact fill',
    true,
    { selector: q('#password'), value: q(V) },
    { selector: q('#password'), value: q(P) },
  ],
  [
    'compact fill with action',
    true,
    { action: q('fill'), selector: q('#password'), value: q(V) },
    { action: q('fill'), selector: q('#password'), value: q(P) },
  ],
  [
    'compact type by ref',
    true,
    { element: q('Password textbox'), ref: q('e12'), text: q(V) },
    { element: q('Password textbox'), ref: q('e12'), text: q(P) },
  ],
  [
    'compact name/value',
    true,
    { name: q('DB_PASSWORD'), value: q(V) },
    { name: q('DB_PASSWORD'), value: q(P) },
  ],
  [
    'compact name/value, a token',
    true,
    { name: q('GITHUB_TOKEN'), value: q(V) },
    { name: q('GITHUB_TOKEN'), value: q(P) },
  ],
  [
    'compact key/value',
    true,
    { key: q('DB_PASSWORD'), value: q(V) },
    { key: q('DB_PASSWORD'), value: q(P) },
  ],
  [
    'cookies',
    false,
    { cookies: [{ name: 'sessionid', value: V, domain: 'x.com' }] },
    { cookies: [{ name: 'sessionid', value: C, domain: 'x.com' }] },
  ],
  [
    'storage state cookie',
    false,
    {
      cookies: [
        {
          name: 'sid',
          value: V,
          domain: '.x.com',
          path: '/',
          httpOnly: true,
          secure: true,
          sameSite: 'Lax',
        },
      ],
    },
    {
      cookies: [
        {
          name: 'sid',
          value: C,
          domain: '.x.com',
          path: '/',
          httpOnly: true,
          secure: true,
          sameSite: 'Lax',
        },
      ],
    },
  ],
];

/** Near misses: clear in every form. [label, compact tier, arguments]. */
const CLEAR: [string, boolean, Record<string, unknown>][] = [
  ['a user name', false, { name: 'username', value: 'bob' }],
  ['a URL setting', false, { name: 'API_TOKEN_URL', value: 'https://x' }],
  ['an email field', false, { selector: '#email', value: 'a@b.c' }],
  ['a region', false, { Name: 'Region', Value: 'eu-west-1' }],
  ['a parameter', false, { ParameterKey: 'InstanceType', ParameterValue: 't3.micro' }],
  ['a placeholder', false, { name: 'DB_PASSWORD', value: 'changeme' }],
  ['a reference', false, { name: 'DB_PASSWORD', value: '$(DB_PASSWORD)' }],
  ['a switch', false, { name: 'PASSWORD_AUTH', value: 'enabled' }],
  ['a header', false, { headers: [{ name: 'Accept', value: 'application/json' }] }],
  ['a DNS record', false, { name: 'www', type: 'A', value: 'Xk9Vq7', domain: 'x.com' }],
  ['no domain: no cookie', false, { name: 'theme', value: 'Xk9Vq7Hunter2z' }],
  ["a nested name is not the item's", false, { Value: V, meta: { name: 'API_TOKEN' } }],
  ['compact user name', true, { name: q('username'), value: q('bob') }],
  ['compact email', true, { selector: q('#email'), value: q('a@b.c') }],
  ['compact key', true, { key: q('Region'), value: q('eu-west-1') }],
  ['compact quoted text', true, { selector: q('#search'), value: q('"quoted" text') }],
];

describe('a secret split across a name and a value member (review 20)', () => {
  it.each(CASES)('%s: the raw line and its bytes', (_label, _compact, args, want) => {
    expect(r.redactText(line(args))).toBe(line(want));
    expect(bytes(line(args))).toBe(sameLength(line(args), line(want)));
  });

  it.each(CASES)(
    '%s: decoded, pretty-printed, JSON inside JSON',
    (_label, _compact, args, want) => {
      expect(r.redactText(JSON.stringify(args))).toBe(JSON.stringify(want));
      expect(r.redactText(JSON.stringify(args, null, 2))).toBe(JSON.stringify(want, null, 2));
      expect(r.redactText(nested(args))).toBe(nested(want));
    },
  );

  it.each(CASES)('%s: the parsed path masks as the text path', (_label, compact, args, want) => {
    const served = r.redactJson(parsedArgs(line(args), compact));
    expect(served).toEqual(parsedArgs(line(want), compact));
    expect(served).toEqual(parsedArgs(r.redactText(line(args)), compact));
  });

  it.each(CLEAR)('%s stays clear in every form', (_label, compact, args) => {
    expect(r.redactText(line(args))).toBe(line(args));
    expect(bytes(line(args))).toBe(line(args));
    expect(r.redactText(JSON.stringify(args, null, 2))).toBe(JSON.stringify(args, null, 2));
    expect(r.redactText(nested(args))).toBe(nested(args));
    const parsed = parsedArgs(line(args), compact);
    expect(r.redactJson(parsed)).toBe(parsed);
  });
});

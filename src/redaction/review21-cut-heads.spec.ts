import { Redactor } from './redactor';

/**
 * Review 20 (of this stop's build), HIGH-2 in part: a compact tail cut inside a Basic
 * Authorization or Proxy-Authorization header (`ion: Basic V`, `ization: Basic V`), or right
 * after a name/value object's `{"` (`name": "API_TOKEN", "value": "V"}`), served V on every
 * route of the compact tier while the full tier masked it. Each form: the decoded text, the
 * transcript line (JSON), the line's bytes as a download masks them.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const HEAD = 'x'.repeat(40);
const cut = (tail: string) => `${HEAD}\n<truncated 3000 bytes>\n${tail}\nend`;
const line = (content: string) => JSON.stringify({ step_index: 1, content });
const bytes = (text: string) => {
  const b = Buffer.from(text);
  r.maskUtf8(b);
  return b.toString();
};

const MASKED: [tail: string, masked: string, secret: string][] = [
  [
    'ion: Basic ZtFsHl7UeioEJP2NNern66nV',
    'ion: Basic [REDACTED:basic-auth]',
    'ZtFsHl7UeioEJP2NNern66nV',
  ],
  [
    'ization: Basic Ztedcm4pMbXDuCL1mHoOsFaQ',
    'ization: Basic [REDACTED:basic-auth]',
    'Ztedcm4pMbXDuCL1mHoOsFaQ',
  ],
  ['Basic dXNlcjpodW50ZXIy', 'Basic [REDACTED:basic-auth]', 'dXNlcjpodW50ZXIy'],
  [
    'name": "API_TOKEN", "value": "ZtZFlRJmCGmUXiAPyhzAnar3"}',
    'name": "API_TOKEN", "value": "[REDACTED:password]"}',
    'ZtZFlRJmCGmUXiAPyhzAnar3',
  ],
  [
    'Name":"DB_PASSWORD","Value":"Zq8Tr0ub4dorQw"}]',
    'Name":"DB_PASSWORD","Value":"[REDACTED:password]"}]',
    'Zq8Tr0ub4dorQw',
  ],
];

const CLEAR = [
  'ion: Basic authentication is used here',
  'c usage: Basic Xy',
  'name": "username", "value": "bob"}',
  'name": "Region", "value": "eu-west-1"}',
  'ation: basic auth needs a user name',
];

describe('a compact tail cut inside a Basic header or a name/value object', () => {
  it.each(MASKED)('%s', (tail, masked, secret) => {
    expect(r.redactText(cut(tail))).toBe(cut(masked));
    expect(r.redactText(line(cut(tail)))).toBe(line(cut(masked)));
    const raw = bytes(line(cut(tail)));
    expect(raw).not.toContain(secret);
    expect(raw.length).toBe(line(cut(tail)).length);
  });

  it.each(CLEAR)('leaves %s', (tail) => {
    expect(r.redactText(cut(tail))).toBe(cut(tail));
    expect(r.redactText(line(cut(tail)))).toBe(line(cut(tail)));
    expect(bytes(line(cut(tail)))).toBe(line(cut(tail)));
  });
});

import { Redactor } from './redactor';

/**
 * Review H5: a token of a known format glued to letters or digits before it (a log that lost
 * its separator, an identifier's tail) was served clear: AWS key ids and Stripe keys needed an
 * edge before them (GitHub's prefixes never did). Now the glued token is masked when its
 * documented prefix, alphabet and length match exactly. Values are made up.
 */
const kinds: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
beforeEach(() => (kinds.length = 0));
const ANTHROPIC = `sk-ant-api03-${'aB3-_'.repeat(18)}aB3AA`;
const OPENAI = `sk-proj-${'aB3dE6gH9j'.repeat(5)}`;

describe('a known-format token glued to a word', () => {
  it.each([
    ['AWS key id', 'cccAKIAIOSFODNN7ABCDEFG x', 'ccc[REDACTED:aws-access-key] x'],
    ['AWS temporary key id', 'id=9ASIAJ2K3L4M5N6O7P2Q3', 'id=9[REDACTED:aws-access-key]'],
    ['Stripe live key', 'abcsk_live_4eC39HqLyjWDarjtT1zdp7dc x', 'abc[REDACTED:stripe-key] x'],
    [
      'Stripe restricted test key',
      'keyrk_test_51HqLyjWDarjtT1zdp7dc4eC3',
      'key[REDACTED:stripe-key]',
    ],
    // Review r12: letters or digits glued after (a base32 run is masked to its end).
    ['AWS key id, lower case after', 'AKIAYQNTD44UZ5GKYWTMabc x', '[REDACTED:aws-access-key]abc x'],
    ['AWS key id, glued both sides', 'zzzAKIA6TANUVLHNLZ64YXZq', 'zzz[REDACTED:aws-access-key]q'],
    [
      'AWS key id, a base32 digit after',
      'id AKIAIOSFODNN7ABCDEFG7 x',
      'id [REDACTED:aws-access-key] x',
    ],
    ['AWS key id, one letter more', 'cccAKIAIOSFODNN7ABCDEFGH x', 'ccc[REDACTED:aws-access-key] x'],
    [
      'AWS key id, `_prod` after',
      'id ASIAIOSFODNN7ABCDEFG_prod',
      'id [REDACTED:aws-access-key]_prod',
    ],
    ['GitHub token', 'xghp_16C7e42F292c6912E7710c838347Ae178B4a x', 'x[REDACTED:github-token] x'],
    // Review r12: other formats glued to letters or digits before them, exactly as documented.
    [
      'Slack bot token',
      'abcdxoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx end',
      'abcd[REDACTED:slack-token] end',
    ],
    [
      'Slack user token',
      'tokxoxp-12345678901-12345678901-123456789012-0123456789abcdef0123456789abcdef end',
      'tok[REDACTED:slack-token] end',
    ],
    [
      'Google API key',
      'keyxAIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe end',
      'keyx[REDACTED:gcp-api-key] end',
    ],
    ['npm token', 'xnpm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 end', 'x[REDACTED:npm-token] end'],
    [
      'Hugging Face token',
      'xhf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf1h end',
      'x[REDACTED:huggingface-token] end',
    ],
    ['Anthropic key', `abc${ANTHROPIC} end`, 'abc[REDACTED:anthropic-key] end'],
    ['OpenAI project key', `abc${OPENAI} end`, 'abc[REDACTED:openai-key] end'],
  ])('masks %s', (_name, input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(kinds).toHaveLength(1);
  });

  it.each([
    // Outside the alphabet (`8`, `1` are no base32 digits).
    'cccAKIAIOSFODNN7ABCDEF8 x',
    'cccAKIAIOSFODNN1ABCDEFG x',
    'AKIAIOSFODNN1ABCDEFGabc x',
    // An identifier, too short, or not random (one case, no digit).
    'task_test_abcdefghijklmnopqrstuvwxyz',
    'abcsk_live_4eC39HqLyjWDarjtT1zdp7 x',
    'disk_live_snapshot_2024_replica',
    'risk_test_ABCDEFGHIJKLMNOPQRSTUVWX1234',
    // Glued, but not the documented length or alphabet (r12's formats).
    'abcdxoxb-1234567890-abc end',
    'keyxAIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQeX end',
    'xnpm_abcdefghijklmnopqrstuvwxyzabcdefghij end',
    'xnpm_AbCdEfGhIjKlMnOpQrStUvWxYz012345678 end',
    'my_hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf1h end',
    `abc${ANTHROPIC}x end`,
    'task-abcdefghijklmnopqrstuvwxyz end',
    'abcsk-proj-abcdefghijklmnopqrstuvwxyzabcdefghijklmn end',
  ])('leaves %s', (text) => {
    expect(r.redactText(text)).toBe(text);
    expect(kinds).toEqual([]);
  });
});

import { marker, mergeSpans, Redactor } from './redactor';

const on = (extraPatterns: string[] = [], onRedact?: (kind: string) => void) =>
  new Redactor({ enabled: true, extraPatterns }, onRedact);

const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJhbGljZSJ9', 'c2lnbmF0dXJlLWJ5dGVz'].join('.');

describe('Redactor', () => {
  it('replaces each span with [REDACTED:<kind>] and counts it by kind', () => {
    const kinds: string[] = [];
    const r = on([], (k) => kinds.push(k));
    expect(r.redactText(`a password=hunter2 b ${JWT} c`)).toBe(
      'a password=[REDACTED:password] b [REDACTED:jwt] c',
    );
    expect(kinds).toEqual(['password', 'jwt']);
  });

  it('returns the very same string when nothing is found', () => {
    const text = 'nothing to see here: x = 1';
    expect(on().redactText(text)).toBe(text);
    expect(on().redactText('')).toBe('');
  });

  describe('findSpans', () => {
    it('gives sorted spans in UTF-16 offsets', () => {
      const text = `é ${JWT} password=x1`;
      const spans = on().findSpans(text);
      expect(spans).toEqual([
        { start: 2, end: 2 + JWT.length, kind: 'jwt' },
        { start: text.length - 2, end: text.length, kind: 'password' },
      ]);
    });

    it('merges overlaps, the most specific kind winning', () => {
      expect(on().findSpans(`password=${JWT}`)).toEqual([
        { start: 9, end: 9 + JWT.length, kind: 'jwt' },
      ]);
      expect(on(['hunter\\d+ and more']).findSpans('password=hunter2 and more')).toEqual([
        { start: 9, end: 25, kind: 'custom' },
      ]);
    });

    it('mergeSpans keeps touching spans apart and sorts', () => {
      expect(
        mergeSpans([
          { start: 5, end: 8, kind: 'password' },
          { start: 0, end: 5, kind: 'jwt' },
          { start: 6, end: 10, kind: 'custom' },
        ]),
      ).toEqual([
        { start: 0, end: 5, kind: 'jwt' },
        { start: 5, end: 10, kind: 'custom' },
      ]);
    });
  });

  describe('extra patterns (REDACT_PATTERNS)', () => {
    it('masks their matches as custom', () => {
      const r = on(['ACME-[0-9a-f]{8}', 'corp\\.internal/[a-z]+']);
      expect(r.redactText('key ACME-deadbeef at corp.internal/vault, ACME-12')).toBe(
        'key [REDACTED:custom] at [REDACTED:custom], ACME-12',
      );
    });

    it('masks only the (?<secret>...) group when there is one', () => {
      const r = on(['ticket=(?<secret>[A-Z]{3}-\\d+)']);
      expect(r.redactText('see ticket=ABC-123 now')).toBe('see ticket=[REDACTED:custom] now');
    });

    it('survives zero-length matches and alternations', () => {
      const r = on(['(?=never)|zz']);
      expect(r.redactText('a zz b')).toBe('a [REDACTED:custom] b');
    });

    it('validatePatterns names each bad pattern', () => {
      expect(Redactor.validatePatterns(['ok[0-9]+', '(unclosed', '', 'a*', 'x{2}'])).toEqual([
        expect.stringMatching(/^"\(unclosed" is not a regular expression \(.+\)$/),
        'an empty pattern',
        '"a*" matches the empty string',
      ]);
      expect(Redactor.validatePatterns([])).toEqual([]);
    });

    it('refuses to construct with a bad pattern', () => {
      expect(() => on(['('])).toThrow(/REDACT_PATTERNS: "\(" is not a regular expression/);
    });
  });

  describe('disabled', () => {
    const off = new Redactor({ enabled: false, extraPatterns: ['secret'] }, () => {
      throw new Error('no metric when disabled');
    });
    it('is the identity', () => {
      const text = `password=hunter2 ${JWT} secret`;
      expect(off.redactText(text)).toBe(text);
      expect(off.findSpans(text)).toEqual([]);
      expect(off.redactSlice(text, 2, 5)).toBe(text.slice(2, 5));
      const value = { a: [text] };
      expect(off.redactJson(value)).toBe(value);
    });
  });

  describe('redactJson', () => {
    it('redacts every string deep inside, and values under secret-named keys whole', () => {
      const r = on();
      const value = {
        step_index: 3,
        password: 'not a key=value, but under a password key',
        content: 'export TOKEN=abc123',
        tool_calls: [
          { name: 'run_command', args: { CommandLine: `curl -H "Authorization: Bearer x9y8z7"` } },
        ],
        nested: [[`${JWT}`], null, true, 1.5],
      };
      expect(r.redactJson(value)).toEqual({
        step_index: 3,
        password: '[REDACTED:password]',
        content: 'export TOKEN=[REDACTED:password]',
        tool_calls: [
          {
            name: 'run_command',
            args: { CommandLine: 'curl -H "Authorization: Bearer [REDACTED:bearer]"' },
          },
        ],
        nested: [['[REDACTED:jwt]'], null, true, 1.5],
      });
      // The input is not changed.
      expect(value.content).toBe('export TOKEN=abc123');
    });

    it('copies on write: unchanged values come back as the same objects', () => {
      const r = on();
      const clean = { a: { b: ['x', 'y'] }, c: 'z' };
      expect(r.redactJson(clean)).toBe(clean);
      const mixed = { keep: { b: ['x'] }, change: ['password=hunter2'] };
      const out = r.redactJson(mixed) as typeof mixed;
      expect(out).not.toBe(mixed);
      expect(out.keep).toBe(mixed.keep);
      expect(out.change).toEqual(['password=[REDACTED:password]']);
    });

    it('passes non-JSON objects and primitives through', () => {
      const r = on();
      const d = new Date(0);
      expect(r.redactJson(d)).toBe(d);
      expect(r.redactJson(undefined)).toBe(undefined);
      expect(r.redactJson('password=hunter2')).toBe('password=[REDACTED:password]');
    });
  });

  describe('redactSlice / mask', () => {
    it('masks the part of a secret inside the slice', () => {
      const r = on();
      const text = `xx ${JWT} yy`;
      expect(r.redactSlice(text, 0, 10)).toBe('xx [REDACTED:jwt]');
      expect(r.redactSlice(text, 10, text.length)).toBe('[REDACTED:jwt] yy');
      expect(r.redactSlice(text, 0, 3)).toBe('xx ');
      expect(r.redactSlice(text, 5, 5)).toBe('');
    });

    it('marker', () => {
      expect(marker('jwt')).toBe('[REDACTED:jwt]');
    });
  });
});

describe('secrets the second outside review found served', () => {
  const G = 'ghp_PlntAnsiGQQQQQQQQQQQQQQQQQQQQQQQQQQQ';
  const AKIA = 'AKIAPLNTANSBABCD2345';

  it('masks a token right after an ANSI colour or erase sequence, raw or escaped', () => {
    const kinds: string[] = [];
    const r = on([], (k) => kinds.push(k));
    expect(
      r.redactText(
        `\x1b[33m${G}\x1b[0m \x1b[1;31m${AKIA}\x1b[0m \x1b[2K${G} \x1b[K${AKIA}` +
          ` \x1b[32mxoxb-2222222222-3333333333333-PlntAnsiYabcdefghijklmno` +
          ` \x1b[36msk_live_PlntAnsiTabcdefghijklmnop`,
      ),
    ).toBe(
      '\x1b[33m[REDACTED:github-token]\x1b[0m \x1b[1;31m[REDACTED:aws-access-key]\x1b[0m' +
        ' \x1b[2K[REDACTED:github-token] \x1b[K[REDACTED:aws-access-key]' +
        ' \x1b[32m[REDACTED:slack-token] \x1b[36m[REDACTED:stripe-key]',
    );
    expect(kinds).toEqual([
      'github-token',
      'aws-access-key',
      'github-token',
      'aws-access-key',
      'slack-token',
      'stripe-key',
    ]);
    // As JSON stores the output (\u001b[33m), and as shell text writes it (\033[, \e[, \x1b[).
    expect(r.redactText(JSON.stringify(`\x1b[33m${G}`))).toBe(
      '"\\u001b[33m[REDACTED:github-token]"',
    );
    expect(r.redactText(`printf "\\033[1m${AKIA} \\e[31m${G} \\x1b[0m${G}"`)).toBe(
      'printf "\\033[1m[REDACTED:aws-access-key] \\e[31m[REDACTED:github-token] \\x1b[0m[REDACTED:github-token]"',
    );
  });

  it('masks a GitHub token glued to a word, a digit or a dash', () => {
    expect(on().redactText(`0${G} Token${G} x-${G}`)).toBe(
      '0[REDACTED:github-token] Token[REDACTED:github-token] x-[REDACTED:github-token]',
    );
    // A stripe-like run inside an identifier still needs its edge (desk_live_… is a name).
    expect(on().redactText('desk_live_configuration_abcdefghij')).toBe(
      'desk_live_configuration_abcdefghij',
    );
  });

  it('reads the full-width colon and equals sign as separators (密码：…)', () => {
    expect(on().redactText('密码：Pl4ntedMimabshGuN\nパスワード＝Pl4ntedJaFull9')).toBe(
      '密码：[REDACTED:password]\nパスワード＝[REDACTED:password]',
    );
  });

  it('masks an AWS secret key written shortly after its key id, not a path after it', () => {
    expect(
      on().redactText(`the AWS key is ${AKIA} / Pl4ntAwsSecyLEXEI/KWk7hqLUSMoEtLmeA5az8A ok`),
    ).toBe('the AWS key is [REDACTED:aws-access-key] / [REDACTED:aws-secret-key] ok');
    // Alone on the next line (a focused re-review found it served).
    expect(
      on().redactText(`aws_access_key_id = ${AKIA}\nZq8/Rk2mWv9XyT4nLp6sBc3Hd7Fj1Ga5Ke0Uo8Wi\n`),
    ).toBe('aws_access_key_id = [REDACTED:aws-access-key]\n[REDACTED:aws-secret-key]\n');
    expect(on().redactText(`${AKIA} s3://bucket/some/path/to/the/object/file.txt`)).toBe(
      '[REDACTED:aws-access-key] s3://bucket/some/path/to/the/object/file.txt',
    );
  });
});

describe('secrets the third outside review found served', () => {
  it('masks a value echoed into a registry login at the start of a JSON string (a raw line)', () => {
    const line = (cmd: string) =>
      JSON.stringify({ tool_calls: [{ name: 'run_command', args: { CommandLine: cmd } }] });
    const cases: [string, string][] = [
      ['echo PwStdA-aaaaaaaaaa | docker login --password-stdin -u me r', 'PwStdA-aaaaaaaaaa'],
      ["echo 'PwStdB-bbbbbbbbbb' | docker login --password-stdin r", 'PwStdB-bbbbbbbbbb'],
      ['printf PwStdC-cccccccccc | podman login --password-stdin r', 'PwStdC-cccccccccc'],
      ['echo PwStdD-dddddddddd|docker login --password-stdin r', 'PwStdD-dddddddddd'],
    ];
    for (const [cmd, secret] of cases) {
      const masked = cmd.replace(secret, '[REDACTED:password]');
      // As the full tier writes it, and as the compact tier (JSON text inside JSON).
      expect(on().redactText(line(cmd))).toBe(line(masked));
      expect(on().redactText(line(JSON.stringify(cmd)))).toBe(line(JSON.stringify(masked)));
      // A shell's quoted command string too.
      expect(on().redactText(`bash -c "${cmd}"`)).toBe(`bash -c "${masked}"`);
    }
  });

  it('masks the value of a password field in saved HTML, not of other inputs', () => {
    expect(
      on().redactText(
        '<form><input name="user" value="bob"><input type="password" value="PwHtml-Aa1bb">' +
          "<INPUT id='pwd' value='PwHtml-Cc2dd'/><input value=PwHtml-Ee3ff name=password>" +
          '<input type="text" value="visible text"><input type="password" value=""></form>',
      ),
    ).toBe(
      '<form><input name="user" value="bob"><input type="password" value="[REDACTED:password]">' +
        "<INPUT id='pwd' value='[REDACTED:password]'/><input value=[REDACTED:password] name=password>" +
        '<input type="text" value="visible text"><input type="password" value=""></form>',
    );
    // As a JSON string stores the page (escaped quotes).
    expect(on().redactText(JSON.stringify('<input type="password" value="PwHtml-Gg4hh">'))).toBe(
      JSON.stringify('<input type="password" value="[REDACTED:password]">'),
    );
  });

  it('masks a secret fed to a login in the variants the focused re-review served', () => {
    const M = '[REDACTED:password]';
    const cases: [string, string][] = [
      ['docker login --password-stdin -u me r <<< ZqNK1KLQTr94QtwRRU', 'ZqNK1KLQTr94QtwRRU'],
      ['docker login --password-stdin r <<<"ZqNK2KLQTr94QtwRRU"', 'ZqNK2KLQTr94QtwRRU'],
      [
        'echo ZqOCMYYeavNP62ryFM | sudo -E docker login --password-stdin -u me r',
        'ZqOCMYYeavNP62ryFM',
      ],
      [
        'echo ZqmysqV7F7lsZVBcQb | DOCKER_CONFIG=/tmp docker login --password-stdin r',
        'ZqmysqV7F7lsZVBcQb',
      ],
      ['echo ZqVrIhJuycVXZWp5HP | crane auth login r -u me --password-stdin', 'ZqVrIhJuycVXZWp5HP'],
      [
        'echo Zqzr4Z6bfbDnqdGui7 | tee /dev/null | docker login --password-stdin r',
        'Zqzr4Z6bfbDnqdGui7',
      ],
      [
        'cat <<EOF | docker login --password-stdin -u me r\nZqFpt8v9GqYZQ0WWiv\nEOF',
        'ZqFpt8v9GqYZQ0WWiv',
      ],
      [
        'I will run `echo ZqKrcYTdtUdMdNFOIW | docker login --password-stdin -u me r`',
        'ZqKrcYTdtUdMdNFOIW',
      ],
      ['echo ZqCf1 | docker --config /tmp/c login --password-stdin r', 'ZqCf1'],
      ['echo ZqCf2 | sudo -u root docker login --password-stdin r', 'ZqCf2'],
      ['echo ZqCf3 | timeout 30 docker login --password-stdin r', 'ZqCf3'],
      ['echo ZqCf4 | /usr/bin/docker login --password-stdin r', 'ZqCf4'],
      ['echo ZqCf5 | env docker login --password-stdin r', 'ZqCf5'],
      ['echo ZqGhTok6abc | gh auth login --with-token', 'ZqGhTok6abc'],
    ];
    for (const [text, secret] of cases) {
      expect(on().redactText(text)).toBe(text.replace(secret, M));
      // As a raw JSON line stores the command, after a long content (no line break before).
      const content = 'x'.repeat(2000);
      const line = JSON.stringify({ content, args: { CommandLine: text } });
      expect(on().redactText(line)).toBe(
        JSON.stringify({ content, args: { CommandLine: text.replace(secret, M) } }),
      );
    }
    // Not a login, a variable, or a login that reads no stdin: left alone.
    for (const text of [
      'echo hello | grep docker',
      'echo $PW | docker login --password-stdin r',
      'cat <<EOF | docker login --password-stdin r\n$TOKEN\nEOF',
      'echo hi | docker login -u bob',
      'docker run --rm img <<< input-text',
    ])
      expect(on().redactText(text)).toBe(text);
  });
});

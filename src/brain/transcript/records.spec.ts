import { hasMarker, parseLine, parseTime, toRecord, type LineVerdict } from './records';
import type { StepRecord } from '../types';

/** One line's verdict, for compact (`encoded`) or full lines. */
const verdict = (line: string | Buffer, encoded = true): LineVerdict =>
  parseLine(Buffer.isBuffer(line) ? line : Buffer.from(line), encoded, 7, 12);

const record = (obj: Record<string, unknown>, encoded = true): StepRecord => {
  const v = verdict(JSON.stringify(obj), encoded);
  if (v.kind !== 'record') throw new Error(`not a record: ${JSON.stringify(v)}`);
  return v.record;
};

const BASE = { step_index: 3, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE' };

describe('parseLine: what is a record', () => {
  it('turns an object with an integer step_index into a record with its position and line', () => {
    expect(
      verdict(
        '{"step_index":3,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-05-28T09:00:00Z","content":"hi"}',
      ),
    ).toEqual({
      kind: 'record',
      record: {
        index: 3,
        position: 7,
        line: 12,
        occurrence: 0,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        createdAt: new Date('2026-05-28T09:00:00Z'),
        content: 'hi',
        thinking: null,
        error: null,
        toolCalls: [],
        truncatedFields: [],
        tokens: null,
      },
    });
  });

  it('counts 3.0 as the integer 3, and 0 and negative integers as indices', () => {
    expect(record({ ...BASE, step_index: 3.0 }).index).toBe(3);
    const v = verdict('{"step_index":3.0,"type":"X"}');
    expect(v.kind === 'record' && v.record.index).toBe(3);
    const e = verdict('{"step_index":3e0,"type":"X"}');
    expect(e.kind === 'record' && e.record.index).toBe(3);
    expect(record({ ...BASE, step_index: 0 }).index).toBe(0);
    expect(record({ ...BASE, step_index: -1 }).index).toBe(-1);
  });

  it.each([
    ['{"step_index":4.5,"type":"X"}', 'the object has no integer step_index'],
    ['{"step_index":"3","type":"X"}', 'the object has no integer step_index'],
    ['{"step_index":null}', 'the object has no integer step_index'],
    ['{"foo":1}', 'the object has no integer step_index'],
    ['[1,2]', 'the line is JSON but not an object'],
    ['"step_index"', 'the line is JSON but not an object'],
    ['3', 'the line is JSON but not an object'],
    ['null', 'the line is JSON but not an object'],
    ['{"step_index":2,"source": garbage ]]', 'the line is not valid JSON'],
    ['{"step_index":8,"sou', 'the line is not valid JSON'],
  ])('%s is malformed: %s', (line, reason) => {
    expect(verdict(line)).toEqual({
      kind: 'malformed',
      reason,
      json: !reason.includes('valid JSON'),
    });
  });

  it('treats empty and whitespace-only lines as blank', () => {
    for (const line of ['', ' ', '\t \t', '\r', '  \r']) {
      expect([JSON.stringify(line), verdict(line)]).toEqual([
        JSON.stringify(line),
        { kind: 'blank' },
      ]);
    }
  });

  it('decodes invalid UTF-8 as U+FFFD and keeps the record', () => {
    const line = Buffer.concat([
      Buffer.from('{"step_index":1,"type":"X","content":"bad: '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' / cut: '),
      Buffer.from([0xe2, 0x98]), // the first two bytes of a 3-byte character
      Buffer.from(' end"}'),
    ]);
    const v = verdict(line);
    expect(v.kind === 'record' && v.record.content).toBe('bad: \uFFFD\uFFFD / cut: \uFFFD end');
  });

  it('keeps an escaped NUL and rejects a raw one', () => {
    const escaped = verdict('{"step_index":1,"type":"X","content":"a\\u0000b"}');
    expect(escaped.kind === 'record' && escaped.record.content).toBe('a\u0000b');
    const raw = Buffer.from('{"step_index":1,"type":"X","content":"a\u0000b"}');
    expect(verdict(raw)).toEqual({
      kind: 'malformed',
      reason: 'the line is not valid JSON',
      json: false,
    });
  });

  it('rejects a deeply nested line without throwing (nothing could serialize it again)', () => {
    const deep = '{"step_index":1,"x":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
    expect(verdict(deep)).toEqual({
      kind: 'malformed',
      reason: 'the line nests deeper than 256 levels',
      json: true,
    });
  });
});

describe('toRecord: fields', () => {
  it('keeps the type as written (open set) and maps unknown enums to UNKNOWN', () => {
    const r = record({
      step_index: 1,
      source: 'ROBOT',
      type: 'BROWSER_SUBAGENT',
      status: 'PAUSED',
    });
    expect([r.type, r.source, r.status]).toEqual(['BROWSER_SUBAGENT', 'UNKNOWN', 'UNKNOWN']);
    const none = record({ step_index: 1 });
    expect([none.type, none.source, none.status]).toEqual(['UNKNOWN', 'UNKNOWN', 'UNKNOWN']);
    const lower = record({ step_index: 1, source: 'model', status: 'done', type: 'generic' });
    expect([lower.type, lower.source, lower.status]).toEqual(['generic', 'UNKNOWN', 'UNKNOWN']);
  });

  it.each([
    ['USER_EXPLICIT', 'USER_EXPLICIT'],
    ['MODEL', 'MODEL'],
    ['SYSTEM', 'SYSTEM'],
    ['', 'UNKNOWN'],
  ])('source %s -> %s', (source, want) =>
    expect(record({ step_index: 0, source }).source).toBe(want),
  );

  it.each([
    ['DONE', 'DONE'],
    ['RUNNING', 'RUNNING'],
    ['ERROR', 'ERROR'],
    ['CANCELLED', 'CANCELLED'],
    ['CANCELED', 'UNKNOWN'],
  ])('status %s -> %s', (status, want) =>
    expect(record({ step_index: 0, status }).status).toBe(want),
  );

  it('keeps the error of an ERROR_MESSAGE record (no content)', () => {
    const r = record({ ...BASE, type: 'ERROR_MESSAGE', error: 'model quota exceeded' });
    expect([r.error, r.content]).toEqual(['model quota exceeded', null]);
    expect(record({ ...BASE, error: { code: 7 } }).error).toBe('{"code":7}');
  });

  it('reads token counts, null where absent', () => {
    expect(
      record({ ...BASE, input_tokens: 1200, output_tokens: 345, cache_read_tokens: 800 }).tokens,
    ).toEqual({ input: 1200, output: 345, cacheRead: 800 });
    expect(record({ ...BASE, output_tokens: 0 }).tokens).toEqual({
      input: null,
      output: 0,
      cacheRead: null,
    });
    expect(record({ ...BASE, input_tokens: '12' }).tokens).toBeNull();
    expect(record(BASE).tokens).toBeNull();
    // The API's Int carries 0..2^31-1 of them: a count past it, a float or a negative is none
    // (one past it broke every export of its session: the Int could not be serialized).
    const odd = { input_tokens: 1e20, output_tokens: 1.5, cache_read_tokens: -1 };
    expect(record({ ...BASE, ...odd }).tokens).toBeNull();
    expect(record({ ...BASE, input_tokens: 2147483647, output_tokens: 2147483648 }).tokens).toEqual(
      { input: 2147483647, output: null, cacheRead: null },
    );
  });

  it('accepts created_at with Z or an offset and nothing else', () => {
    expect(record({ ...BASE, created_at: '2026-05-19T14:00:00+02:00' }).createdAt).toEqual(
      new Date('2026-05-19T12:00:00Z'),
    );
    expect(record({ ...BASE, created_at: '2026-05-19T12:00:00.250Z' }).createdAt).toEqual(
      new Date('2026-05-19T12:00:00.250Z'),
    );
    for (const bad of ['2026-05-31 17:15:58', '2026-05-31T17:15:58', 'yesterday', '', 17]) {
      expect(record({ ...BASE, created_at: bad }).createdAt).toBeNull();
    }
  });
});

describe('parseTime and hasMarker', () => {
  it('parses only ISO-8601 with a zone', () => {
    expect(parseTime('2026-06-25T17:15:58Z')?.toISOString()).toBe('2026-06-25T17:15:58.000Z');
    expect(parseTime('2026-06-25T18:15:58-01:30')?.toISOString()).toBe('2026-06-25T19:45:58.000Z');
    expect(parseTime('2026-06-25T17:15:58+0100')).toBeNull();
    // Days a month does not have are refused, not rolled over into the next month.
    expect(parseTime('2026-02-30T10:00:00Z')).toBeNull();
    expect(parseTime('2026-02-29T10:00:00Z')).toBeNull();
    expect(parseTime('2026-04-31T10:00:00Z')).toBeNull();
    expect(parseTime('2026-00-10T10:00:00Z')).toBeNull();
    expect(parseTime('2026-06-00T10:00:00Z')).toBeNull();
    expect(parseTime('1900-02-29T10:00:00Z')).toBeNull();
    expect(parseTime('2000-02-29T10:00:00Z')?.toISOString()).toBe('2000-02-29T10:00:00.000Z');
    expect(parseTime('2028-02-29T10:00:00Z')?.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(parseTime('2026-12-31T23:59:59Z')?.toISOString()).toBe('2026-12-31T23:59:59.000Z');
    expect(parseTime('2026-13-45T17:15:58Z')).toBeNull();
    expect(parseTime(null)).toBeNull();
  });

  it('matches the marker only on its own line', () => {
    expect(hasMarker('head\n<truncated 904 bytes>\ntail')).toBe(true);
    expect(hasMarker('head\n<truncated 904 bytes>')).toBe(true);
    expect(hasMarker('head <truncated 904 bytes>\ntail')).toBe(false);
    expect(hasMarker('head\n<truncated 904 bytes> tail')).toBe(false);
    expect(hasMarker('head\n<truncated many bytes>\n')).toBe(false);
    expect(hasMarker(null)).toBe(false);
  });
});

describe('tool calls', () => {
  const calls = [
    {
      name: 'run_command',
      args: {
        CommandLine: '"npm test"',
        Cwd: '"/p"',
        WaitMsBeforeAsync: '5000',
        SafeToAutoRun: 'true',
        Meta: '{"a":[1,2]}',
        Nothing: 'null',
        toolAction: '"Running tests"',
        toolSummary: '"npm test"',
      },
    },
    { name: 'view_file', args: { AbsolutePath: '"/x.ts"' } },
  ];

  it('JSON-decodes every compact argument value that decodes', () => {
    const r = record({ ...BASE, tool_calls: [{ name: 'x', args: { Cwd: '"\\"/p\\""' } }] });
    // "\"/p\"" decodes to the string "/p" wrapped in quotes once more: exactly one decode.
    expect(r.toolCalls[0].args.Cwd).toBe('"/p"');
    const c = record({ ...BASE, tool_calls: calls });
    expect(c.toolCalls).toEqual([
      {
        position: 0,
        name: 'run_command',
        args: {
          CommandLine: 'npm test',
          Cwd: '/p',
          WaitMsBeforeAsync: 5000,
          SafeToAutoRun: true,
          Meta: { a: [1, 2] },
          Nothing: null,
          toolAction: 'Running tests',
          toolSummary: 'npm test',
        },
        toolAction: 'Running tests',
        toolSummary: 'npm test',
      },
      {
        position: 1,
        name: 'view_file',
        args: { AbsolutePath: '/x.ts' },
        toolAction: null,
        toolSummary: null,
      },
    ]);
  });

  it('decodes the contract examples: "5000" -> 5000 and "\\"/p\\"" -> "/p"', () => {
    const line = String.raw`{"step_index":1,"tool_calls":[{"name":"run_command","args":{"WaitMsBeforeAsync":"5000","Cwd":"\"/p\""}}]}`;
    const v = verdict(line);
    expect(v.kind === 'record' && v.record.toolCalls[0].args).toEqual({
      WaitMsBeforeAsync: 5000,
      Cwd: '/p',
    });
  });

  it('keeps a value that does not decode (a truncated one) as its raw string', () => {
    const cut = '"# Plan\\n\\nRésumé: sp\n<truncated 1234 bytes>';
    const r = record({
      ...BASE,
      tool_calls: [{ name: 'w', args: { CodeContent: cut, Overwrite: 'false' } }],
    });
    expect(r.toolCalls[0].args).toEqual({ CodeContent: cut, Overwrite: false });
    expect(r.truncatedFields).toEqual(['tool_calls']);
    const plain = record({ ...BASE, tool_calls: [{ name: 'w', args: { Text: 'not json' } }] });
    expect(plain.toolCalls[0].args).toEqual({ Text: 'not json' });
    expect(plain.truncatedFields).toEqual([]);
  });

  it('uses full-file values as they are', () => {
    const r = record(
      {
        ...BASE,
        tool_calls: [
          {
            name: 'run_command',
            args: {
              Cwd: '/p',
              WaitMsBeforeAsync: 5000,
              Quoted: '"5000"',
              Cut: 'x\n<truncated 3 bytes>',
            },
          },
        ],
      },
      false,
    );
    expect(r.toolCalls[0].args).toEqual({
      Cwd: '/p',
      WaitMsBeforeAsync: 5000,
      Quoted: '"5000"',
      Cut: 'x\n<truncated 3 bytes>',
    });
    expect(r.truncatedFields).toEqual([]);
  });

  it('skips tool calls that are not objects and tolerates missing names and args', () => {
    const r = record({
      ...BASE,
      tool_calls: [null, 'x', { args: { A: '1' } }, { name: 'n', args: [1] }],
    });
    expect(r.toolCalls).toEqual([
      { position: 0, name: '', args: { A: 1 }, toolAction: null, toolSummary: null },
      { position: 1, name: 'n', args: {}, toolAction: null, toolSummary: null },
    ]);
    expect(record({ ...BASE, tool_calls: 'nope' }).toolCalls).toEqual([]);
  });

  it('keeps toolAction/toolSummary in args and null when they are not strings', () => {
    const r = record({
      ...BASE,
      tool_calls: [{ name: 'x', args: { toolAction: '5', toolSummary: '"s"' } }],
    });
    expect(r.toolCalls[0]).toMatchObject({
      args: { toolAction: 5, toolSummary: 's' },
      toolAction: null,
      toolSummary: 's',
    });
  });
});

describe('truncatedFields', () => {
  const MID = (n: number) => `head\n<truncated ${n} bytes>\ntail`;

  it('takes the fields named by truncated_fields, in the order content, thinking, tool_calls', () => {
    const r = record({
      ...BASE,
      content: 'c',
      thinking: 't',
      truncated_fields: ['tool_calls', 'thinking', 'content'],
    });
    expect(r.truncatedFields).toEqual(['content', 'thinking', 'tool_calls']);
    expect(
      record({ ...BASE, truncated_fields: ['args', 'content', 'content'] }).truncatedFields,
    ).toEqual(['content']);
    expect(record({ ...BASE, truncated_fields: 'content' }).truncatedFields).toEqual([]);
  });

  it('adds fields carrying an in-band marker (older files without the key)', () => {
    expect(record({ ...BASE, thinking: MID(904) }).truncatedFields).toEqual(['thinking']);
    expect(record({ ...BASE, content: MID(1) }).truncatedFields).toEqual(['content']);
    expect(
      record({
        ...BASE,
        content: MID(5),
        thinking: MID(6),
        tool_calls: [{ name: 'x', args: { A: '"abc\n<truncated 10 bytes>' } }],
      }).truncatedFields,
    ).toEqual(['content', 'thinking', 'tool_calls']);
    // A marker at the very end (argument style) counts for content too.
    expect(record({ ...BASE, content: 'head\n<truncated 9 bytes>' }).truncatedFields).toEqual([
      'content',
    ]);
  });

  it('merges the key and the markers without duplicates', () => {
    const r = record({
      ...BASE,
      content: MID(5),
      thinking: MID(6),
      truncated_fields: ['thinking'],
    });
    expect(r.truncatedFields).toEqual(['content', 'thinking']);
  });

  it('ignores text that only resembles a marker', () => {
    for (const content of [
      '<truncated 5 bytes>',
      'a <truncated 5 bytes>\n',
      'a\n<truncated 5 bytes> b',
      'a\n<truncated -5 bytes>\n',
    ]) {
      expect([content, record({ ...BASE, content }).truncatedFields]).toEqual([content, []]);
    }
    // A marker inside a decoded argument's text is not a marker of the raw string.
    expect(
      record({ ...BASE, tool_calls: [{ name: 'x', args: { A: '"a <truncated 5 bytes>"' } }] })
        .truncatedFields,
    ).toEqual([]);
  });

  it('does not look for markers in full-file values, but honours the key', () => {
    expect(record({ ...BASE, content: MID(5) }, false).truncatedFields).toEqual([]);
    expect(record({ ...BASE, truncated_fields: ['content'] }, false).truncatedFields).toEqual([
      'content',
    ]);
  });
});

describe('toRecord directly', () => {
  it('explains why a value is not a record', () => {
    expect(toRecord([1], true, 0, 1)).toBe('the line is JSON but not an object');
    expect(toRecord({ step_index: 1.5 }, true, 0, 1)).toBe('the object has no integer step_index');
    expect(toRecord({ step_index: Number.NaN }, true, 0, 1)).toBe(
      'the object has no integer step_index',
    );
  });
});

describe('parseLine: a step_index past 2^53 is named as written (#20 L1)', () => {
  it('says the digits of the line, not the rounded parsed number', () => {
    const reasons = [
      '{"step_index":9007199254740993,"type":"X"}',
      '{"step_index": 12345678901234567890 ,"type":"X"}',
      '{"a":{"step_index":1},"s":"\\"step_index\\":5","step_index":-9007199254740993}',
      '{"step_index":1,"step_index":4294967296000000001}',
      '{"step_index":1e400}',
    ].map((line) => verdict(line));
    expect(reasons).toEqual([
      {
        kind: 'malformed',
        json: true,
        reason: 'the step_index 9007199254740993 is outside the 32-bit integer range',
      },
      {
        kind: 'malformed',
        json: true,
        reason: 'the step_index 12345678901234567890 is outside the 32-bit integer range',
      },
      {
        kind: 'malformed',
        json: true,
        reason: 'the step_index -9007199254740993 is outside the 32-bit integer range',
      },
      {
        kind: 'malformed',
        json: true,
        reason: 'the step_index 4294967296000000001 is outside the 32-bit integer range',
      },
      { kind: 'malformed', json: true, reason: 'the object has no integer step_index' },
    ]);
  });
});

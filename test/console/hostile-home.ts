import * as path from 'node:path';
import { put } from '../fixtures/fs-util';
import { jsonl, compactLine, planner, toolResult, userInput } from '../fixtures/records';

/**
 * A brain home whose one session is hostile everywhere the console shows text: the model name,
 * the request, a command line and its output (ANSI colours, OSC 8 links and OSC 52 clipboard
 * writes), a changed file's path and content, the model's markdown and an artifact. Each holds
 * HTML that would run or load something, and a bidi override.
 */
export const HOSTILE_ID = 'e7110000-0000-4000-8000-000000000001';
/** An AWS access key id the secret detectors know (their documentation's example). */
export const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
export const BIDI = '\u202Egnp.exe\u202C';
export const HTML =
  '<script>alert(1)</script><img src="http://evil.example/i.png" onerror="alert(2)">' +
  '<a href="javascript:alert(3)">js</a><svg onload="alert(4)"><circle r="1"/></svg>' +
  '<style>body{background:url(http://evil.example/s.png)}</style>';
export const MARKDOWN =
  `# Plan ${BIDI}\n\n${HTML}\n\n[click](javascript:alert(5)) [site](https://example.com/a) ` +
  '![pixel](http://evil.example/p.png) <iframe src="http://evil.example/f"></iframe>\n';
export const ANSI_OUTPUT =
  '\u001b[31mred\u001b[0m \u001b]8;;http://evil.example/\u0007link\u001b]8;;\u0007 ' +
  '\u001b]52;c;ZXZpbA==\u0007 \u001b[2J' +
  HTML;

const T = (s: number) => `2026-07-01T10:00:${String(s).padStart(2, '0')}Z`;

export function buildHostileHome(home: string): void {
  const root = path.join(home, 'antigravity-ide', 'brain');
  const dir = path.join(root, HOSTILE_ID);
  const records = [
    userInput(0, T(0), {
      request: `Run ${HTML} ${BIDI} with ${AWS_KEY}`,
      localTime: '2026-07-01T11:00:00+01:00',
      model: { from: 'None', to: `Model ${HTML} ${BIDI}` },
    }),
    planner(1, T(1), {
      content: MARKDOWN,
      tool_calls: [
        { name: 'run_command', args: { CommandLine: `echo ${HTML} ${BIDI}`, Cwd: `/w/${BIDI}` } },
      ],
    }),
    toolResult(2, T(2), `The command failed with exit code: 3\nOutput:\n${ANSI_OUTPUT}\n`, {
      type: 'RUN_COMMAND',
    }),
    planner(3, T(3), {
      tool_calls: [
        {
          name: 'write_to_file',
          args: { TargetFile: `/w/${HTML}${BIDI}.md`, CodeContent: `${HTML}\n${BIDI}\n` },
        },
      ],
    }),
    toolResult(4, T(4), 'Created file', { type: 'CODE_ACTION' }),
  ];
  // A line cut short: no record, but the key on it is a finding like any other.
  // It also holds a raw ESC and a bidi override (the Problems tab shows the line itself).
  const broken = `{"step_index":5,"content":"\x1b[31m${BIDI} export AWS_ACCESS_KEY_ID=${AWS_KEY}\n`;
  put(
    path.join(dir, '.system_generated/logs/transcript.jsonl'),
    jsonl(records.map(compactLine)) + broken,
  );
  put(path.join(dir, 'implementation_plan.md'), MARKDOWN);
  // An earlier version (shown as a diff) and a file whose name is HTML (listed, downloadable),
  // holding the key too: the secrets report names it by that path.
  put(path.join(dir, 'implementation_plan.md.resolved.0'), `# Old ${HTML} ${BIDI}\n`);
  put(path.join(dir, 'scratch', HOSTILE_FILE), `${HTML}\nkey ${AWS_KEY}\n`);
}

/** A scratch file's name: HTML with a handler, and a bidi override. */
export const HOSTILE_FILE = `<img src=x onerror=alert(6)>${BIDI}.txt`;

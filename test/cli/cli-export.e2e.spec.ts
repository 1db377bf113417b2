import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atifRuleErrors, ATIF_SCHEMA } from '../export/atif-schema';
import { codeBlocks } from '../export/fences';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json } from './bin';
import { ACP_ID, GHP, makeCliHome, PLAIN_ID, SECRET_ID } from './cli-home';

/** `export -o FILE`: the shared exporters' files, checked against their formats. */

let home: string;
let out: string;
const run = (args: string[]) =>
  brainql(args, { GEMINI_HOME: home, CACHE_DIR: makeTempDir('brainql-cli-export-cache-') });

beforeAll(() => {
  ensureBuilt();
  home = makeCliHome();
  out = makeTempDir('brainql-cli-export-');
}, 180_000);

it('writes the three formats; each passes its check', async () => {
  const file = (ext: string) => path.join(out, `${PLAIN_ID}.${ext}`);
  const [md, js, atif] = await Promise.all([
    run(['export', PLAIN_ID.slice(0, 8), '--format', 'markdown', '-o', file('md'), '--json']),
    run(['export', PLAIN_ID.slice(0, 8), '--format', 'JSON', '-o', file('json')]),
    run(['export', PLAIN_ID.slice(0, 8), '--format', 'atif', '-o', file('atif.json')]),
  ]);
  expect(json(md)).toEqual({
    file: file('md'),
    fileName: `${PLAIN_ID}.md`,
    contentType: 'text/markdown; charset=utf-8',
    bytes: fs.statSync(file('md')).size,
  });
  expect([js.code, js.stdout, js.stderr]).toEqual([
    0,
    '',
    `wrote ${file('json')} (${fs.statSync(file('json')).size} bytes)\n`,
  ]);

  const doc = JSON.parse(fs.readFileSync(file('json'), 'utf8'));
  expect(doc.session.id).toBe(PLAIN_ID);
  expect(doc.steps.map((s: { index: number }) => s.index)).toEqual([0, 1]);

  const trajectory = JSON.parse(fs.readFileSync(file('atif.json'), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
    ATIF_SCHEMA,
  );
  expect([atif.code, validate(trajectory), validate.errors ?? []]).toEqual([0, true, []]);
  expect(atifRuleErrors(trajectory)).toEqual([]);
  expect(trajectory.schema_version).toBe('ATIF-v1.7');
  expect(
    trajectory.steps.map((s: { step_id: number; source: string }) => [s.step_id, s.source]),
  ).toEqual([
    [1, 'user'],
    [2, 'agent'],
  ]);

  // The step's own fenced block survives inside the export's fence, untouched.
  const blocks = codeBlocks(fs.readFileSync(file('md'), 'utf8'));
  expect(blocks.every((b) => b.closed)).toBe(true);
  expect(blocks.some((b) => b.body.includes('Done: ```js\nconst a = 1;\n```'))).toBe(true);
});

it('masks secrets in exports, streams to stdout without -o, and leaves no file when it fails', async () => {
  const stdout = await run(['export', SECRET_ID, '--format', 'markdown']);
  expect(stdout.code).toBe(0);
  expect(stdout.stdout).toContain('[REDACTED:github-token]');
  expect(stdout.stdout).not.toContain(GHP);

  const target = path.join(out, 'absent.md');
  const absent = await run(['export', 'ffff0000', '--format', 'markdown', '-o', target]);
  expect(absent.code).toBe(1);
  expect(fs.existsSync(target)).toBe(false);
  const unwritable = await run([
    'export',
    SECRET_ID,
    '--format',
    'json',
    '-o',
    path.join(out, 'no/such/dir/x.json'),
  ]);
  expect(unwritable.code).toBe(1);
  expect(unwritable.stderr).toContain('cannot write');
});

describe('never writes under a brain root', () => {
  const inRoot = () => path.join(home, 'antigravity-acp', 'brain', ACP_ID);
  const refused = (file: string) =>
    `will not write ${file}: it lies inside the brain root ${fs.realpathSync(path.join(home, 'antigravity-acp', 'brain'))}\n`;

  it('refuses a path inside a session directory with exit 2', async () => {
    const target = path.join(inRoot(), 'x.json');
    const r = await run(['export', ACP_ID, '--format', 'atif', '-o', target]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `brainql: ${refused(target)}`]);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a path through a symlinked directory, and a root given by BRAIN_ROOTS', async () => {
    const link = path.join(out, 'into-brain');
    fs.symlinkSync(inRoot(), link, 'dir');
    const target = path.join(link, 'y.json');
    const r = await run(['export', ACP_ID, '--format', 'atif', '-o', target]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `brainql: ${refused(target)}`]);
    expect(fs.existsSync(path.join(inRoot(), 'y.json'))).toBe(false);

    const extra = makeTempDir('brainql-cli-extra-root-');
    const z = path.join(extra, 'z.md');
    const viaRoots = await brainql(['export', ACP_ID, '--format', 'markdown', '-o', z], {
      GEMINI_HOME: home,
      BRAIN_ROOTS: extra,
      CACHE_DIR: makeTempDir('brainql-cli-export-cache-'),
    });
    expect([viaRoots.code, viaRoots.stderr]).toEqual([
      2,
      `brainql: will not write ${z}: it lies inside the brain root ${fs.realpathSync(extra)}\n`,
    ]);
    expect(fs.existsSync(z)).toBe(false);
  });
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverRoots, environmentOf, scanSessions } from './roots';
import type { BrainRoot } from './types';

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-roots-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text = ''): void {
  const full = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** A session directory holding one log entry, with its mtime set last (children touch it). */
function session(rel: string, mtimeSec: number, log = 'transcript.jsonl'): void {
  if (log === 'chunks')
    fs.mkdirSync(path.join(tmp, rel, '.system_generated/logs/chunks'), { recursive: true });
  else write(`${rel}/.system_generated/logs/${log}`, '{}\n');
  fs.utimesSync(path.join(tmp, rel), mtimeSec, mtimeSec);
}

function root(rel: string, flavor: string): BrainRoot {
  const p = path.join(tmp, rel);
  return { path: p, realPath: p, flavor, environment: environmentOf(flavor) };
}

describe('environmentOf', () => {
  it('maps the known flavors and everything else to OTHER', () => {
    expect(
      ['antigravity', 'antigravity-ide', 'antigravity-cli', 'antigravity-acp', 'jetski', ''].map(
        environmentOf,
      ),
    ).toEqual(['IDE', 'IDE', 'CLI', 'ACP', 'OTHER', 'OTHER']);
  });
});

describe('discoverRoots', () => {
  it('finds <home>/*/brain directories and extra roots, once per realpath, sorted by path', async () => {
    fs.mkdirSync(path.join(tmp, 'home/antigravity-ide/brain'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'home/antigravity-cli/brain'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'home/jetski'), { recursive: true }); // no brain
    write('home/antigravity-acp/brain'); // a file, not a directory
    write('home/loose.txt');
    fs.mkdirSync(path.join(tmp, 'extra/custom/brain'), { recursive: true });
    // An alias of the IDE root: same realpath, and its path sorts first.
    fs.symlinkSync(path.join(tmp, 'home/antigravity-ide'), path.join(tmp, 'alias'));

    const roots = await discoverRoots(path.join(tmp, 'home'), [
      path.join(tmp, 'extra/custom/brain'),
      path.join(tmp, 'alias/brain'),
      path.join(tmp, 'missing/brain'),
      '',
    ]);

    expect(roots).toEqual([
      {
        path: path.join(tmp, 'alias/brain'),
        realPath: path.join(tmp, 'home/antigravity-ide/brain'),
        flavor: 'alias',
        environment: 'OTHER',
      },
      {
        path: path.join(tmp, 'extra/custom/brain'),
        realPath: path.join(tmp, 'extra/custom/brain'),
        flavor: 'custom',
        environment: 'OTHER',
      },
      {
        path: path.join(tmp, 'home/antigravity-cli/brain'),
        realPath: path.join(tmp, 'home/antigravity-cli/brain'),
        flavor: 'antigravity-cli',
        environment: 'CLI',
      },
    ]);
  });

  it('returns nothing for a missing or null home', async () => {
    expect(await discoverRoots(path.join(tmp, 'nope'), [])).toEqual([]);
    expect(await discoverRoots(null, [])).toEqual([]);
  });
});

describe('scanSessions', () => {
  it('lists session directories, resolving duplicate ids by mtime then root path', async () => {
    const ide = 'home/antigravity-ide/brain';
    const cli = 'home/antigravity-cli/brain';
    session(`${ide}/s1`, 1000);
    session(`${ide}/chunky`, 1000, 'chunks');
    session(`${ide}/fullonly`, 1000, 'transcript_full.jsonl');
    session(`${ide}/dup`, 5000); // newer than cli's dup: wins although its root sorts later
    session(`${cli}/dup`, 2000);
    session(`${ide}/tie`, 3000);
    session(`${cli}/tie`, 3000); // same mtime: cli's root path sorts first
    session(`${cli}/S1`, 500); // same id as ide's s1, case aside, and older
    write(`${ide}/notes.txt`);
    write(`${ide}/thread_summaries.json`, '{}');
    write(`${ide}/nolog/.system_generated/other.txt`);
    write(`${ide}/emptylogs/.system_generated/logs/readme.txt`);
    session(`${ide}/tempmediaStorage/hidden`, 1000); // not a direct child: only via the link
    session('outside/sess', 1000);
    fs.symlinkSync(path.join(tmp, 'outside/sess'), path.join(tmp, ide, 'escape'));
    fs.symlinkSync('tempmediaStorage/hidden', path.join(tmp, ide, 'inside-link'));
    fs.symlinkSync('nowhere', path.join(tmp, ide, 'dangling'));
    fs.symlinkSync('.', path.join(tmp, ide, 'self'));

    const roots = [root(cli, 'antigravity-cli'), root(ide, 'antigravity-ide')];
    const progress: number[] = [];
    const { sessions, perRoot } = await scanSessions(roots, (n) => progress.push(n));

    expect(sessions.map((s) => [s.id, s.root.flavor, s.mtimeMs])).toEqual([
      ['chunky', 'antigravity-ide', 1_000_000],
      ['dup', 'antigravity-ide', 5_000_000],
      ['fullonly', 'antigravity-ide', 1_000_000],
      ['inside-link', 'antigravity-ide', 1_000_000],
      ['s1', 'antigravity-ide', 1_000_000],
      ['tie', 'antigravity-cli', 3_000_000],
    ]);
    const link = sessions[3];
    expect(link.dir).toBe(path.join(tmp, ide, 'inside-link'));
    expect(link.realDir).toBe(path.join(tmp, ide, 'tempmediaStorage/hidden'));
    expect(sessions[4].realDir).toBe(path.join(tmp, ide, 's1'));
    expect(sessions[4].ctimeMs).toBe(fs.statSync(path.join(tmp, ide, 's1')).ctimeMs);
    expect([...perRoot]).toEqual([
      [path.join(tmp, cli), 1],
      [path.join(tmp, ide), 5],
    ]);
    // 3 cli entries + 12 ide directories and symlinks (files are not examined).
    expect(progress).toEqual([15]);
  });

  it('counts a missing root as empty and reports progress in steps', async () => {
    for (let i = 0; i < 600; i++) session(`r/s${String(i).padStart(4, '0')}`, 1000);
    const progress: number[] = [];
    const { sessions, perRoot } = await scanSessions([root('r', 'x'), root('gone', 'y')], (n) =>
      progress.push(n),
    );
    expect(sessions.length).toBe(600);
    expect(sessions[0].id).toBe('s0000');
    expect(sessions[599].id).toBe('s0599');
    expect([...perRoot]).toEqual([
      [path.join(tmp, 'r'), 600],
      [path.join(tmp, 'gone'), 0],
    ]);
    expect(progress).toEqual([256, 512, 600]);
  });
});

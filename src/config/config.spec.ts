import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import * as path from 'node:path';
import { createApp } from '../app.factory';
import { BrainStore } from '../brain/store';
import { ConfigError, loadConfig } from './config';

/** The configuration is read once; these pin what each setting accepts and defaults to. */

function errorOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('reads every boolean setting from true/false, on/off, 1/0 alike (any case)', () => {
    const read = (v: string) => {
      const c = loadConfig({ REDACT: v, INTROSPECTION: v, ALLOW_ANONYMOUS: v });
      return [c.redact, c.introspection];
    };
    expect(['true', 'on', '1', 'ON', 'True'].map(read)).toEqual(Array(5).fill([true, true]));
    expect(['false', 'off', '0', 'OFF'].map(read)).toEqual(Array(4).fill([false, false]));
  });

  it('defaults: redaction on, introspection on loopback only, the loopback Host list', () => {
    const c = loadConfig({});
    expect([c.redact, c.introspection, c.host, c.port, c.geminiHomeSet]).toEqual([
      true,
      true,
      '127.0.0.1',
      3000,
      false,
    ]);
    expect([...c.allowedHosts.names].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect(loadConfig({ GEMINI_HOME: '/x' }).geminiHomeSet).toBe(true);
  });

  it('names every bad variable in one message', () => {
    expect(
      errorOf({
        REDACT: 'maybe',
        INTROSPECTION: 'yes',
        PORT: '99999',
        ALLOWED_HOSTS: 'ok.example,http://bad.example',
      }).split('\n'),
    ).toEqual([
      'Invalid configuration:',
      '  PORT="99999": PORT must be an integer from 0 to 65535',
      '  INTROSPECTION="yes": INTROSPECTION must be one of true/false, on/off, 1/0',
      '  REDACT="maybe": REDACT must be one of true/false, on/off, 1/0',
      '  ALLOWED_HOSTS: "http://bad.example" is not a host name, an IP address, "*.domain" or "*" (no ports or schemes)',
    ]);
  });

  it('adds ALLOWED_HOSTS and a concrete listen address to the Host list', () => {
    const c = loadConfig({ HOST: '10.0.0.5', ALLOW_ANONYMOUS: 'true', ALLOWED_HOSTS: 'a.example' });
    expect([...c.allowedHosts.names].sort()).toEqual([
      '10.0.0.5',
      '127.0.0.1',
      '::1',
      'a.example',
      'localhost',
    ]);
  });
});

describe('REDACT_PATTERNS', () => {
  it('splits on commas between patterns, not inside a quantifier, class or group', () => {
    expect(
      loadConfig({ REDACT_PATTERNS: String.raw`ACME-[0-9]{8,12},FOO-\d+` }).redactPatterns,
    ).toEqual(['ACME-[0-9]{8,12}', String.raw`FOO-\d+`]);
    expect(
      loadConfig({ REDACT_PATTERNS: String.raw`(?:a|b),[,x],K\,V, ,Z` }).redactPatterns,
    ).toEqual(['(?:a|b)', '[,x]', 'K,V', 'Z']);
  });

  it('names an unbalanced pattern', () => {
    expect(errorOf({ REDACT_PATTERNS: String.raw`FOO-\d+,ACME-(x` }).split('\n')).toEqual([
      'Invalid configuration:',
      '  REDACT_PATTERNS: "ACME-(x" is not a regular expression (Invalid regular expression: /ACME-(x/g: Unterminated group)',
    ]);
  });
});

describe('LARGE_VALUES_MB', () => {
  it('defaults to 128 MiB (one 32 MB value at 4 times its size) and takes an integer number of MiB', () => {
    expect(loadConfig({}).largeValuesMb).toBe(128);
    expect(loadConfig({ LARGE_VALUES_MB: '64' }).largeValuesMb).toBe(64);
  });

  it('refuses a bad value together with every other bad variable', () => {
    expect(() => loadConfig({ LARGE_VALUES_MB: '0', CACHE_MAX_MB: 'x' })).toThrow(
      /CACHE_MAX_MB="x": CACHE_MAX_MB must be an integer from 1 to 1048576 \(MiB\)[^]*LARGE_VALUES_MB="0": LARGE_VALUES_MB must be an integer from 1 to 1048576 \(MiB\)/,
    );
  });
});

describe('INDEX_WORKERS', () => {
  it('takes 0 to 16 session workers; unset, none on 1-2 cores, one on 3, two from 4', () => {
    const cores = os.availableParallelism();
    expect(loadConfig({}).indexWorkers).toBe(cores <= 2 ? 0 : cores === 3 ? 1 : 2);
    expect(loadConfig({ INDEX_WORKERS: '0' }).indexWorkers).toBe(0);
    expect(loadConfig({ INDEX_WORKERS: '16' }).indexWorkers).toBe(16);
  });

  it.each(['17', '-1', '1.5', 'two'])('refuses %s, saying what is accepted', (value) => {
    expect(() => loadConfig({ INDEX_WORKERS: value })).toThrow(
      `INDEX_WORKERS=${JSON.stringify(value)}: INDEX_WORKERS must be an integer from 0 to 16`,
    );
  });
});

describe('CACHE_MAX_MB', () => {
  it('defaults to 256 MiB and takes an integer number of MiB', () => {
    expect(loadConfig({}).cacheMaxMb).toBe(256);
    expect(loadConfig({ CACHE_MAX_MB: '64' }).cacheMaxMb).toBe(64);
    expect(loadConfig({ CACHE_MAX_MB: '1' }).cacheMaxMb).toBe(1);
  });

  it.each(['0', '-5', '1.5', 'lots'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ CACHE_MAX_MB: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CACHE_MAX_MB: value })).toThrow(
      `CACHE_MAX_MB=${JSON.stringify(value)}: CACHE_MAX_MB must be an integer from 1 to 1048576 (MiB)`,
    );
  });

  it("is the store's cache budget", async () => {
    const app = await createApp(loadConfig({ CACHE_MAX_MB: '64', LOG_LEVEL: 'silent' }));
    try {
      expect(app.get(BrainStore).cache.maxBytes).toBe(64 * 1024 * 1024);
    } finally {
      await app.close();
    }
  });
});

describe('CACHE_DIR', () => {
  beforeEach(() => jest.spyOn(os, 'homedir').mockReturnValue('/home/tester'));
  afterEach(() => jest.restoreAllMocks());
  const dirOf = (env: NodeJS.ProcessEnv) => loadConfig(env).cacheDir;

  it('defaults to $XDG_CACHE_HOME/brainql, else ~/.cache/brainql', () => {
    expect(dirOf({})).toBe('/home/tester/.cache/brainql');
    expect(dirOf({ XDG_CACHE_HOME: '/var/xdg' })).toBe('/var/xdg/brainql');
    expect(dirOf({ XDG_CACHE_HOME: '/var/xdg/' })).toBe('/var/xdg/brainql');
    expect(dirOf({ XDG_CACHE_HOME: '' })).toBe('/home/tester/.cache/brainql');
    // The XDG spec: a relative value is invalid and ignored.
    expect(dirOf({ XDG_CACHE_HOME: 'cache' })).toBe('/home/tester/.cache/brainql');
  });

  it('takes an absolute path, normalized, over XDG_CACHE_HOME', () => {
    expect(dirOf({ CACHE_DIR: '/srv/brainql', XDG_CACHE_HOME: '/var/xdg' })).toBe('/srv/brainql');
    expect(dirOf({ CACHE_DIR: '/srv/x/../cache/' })).toBe('/srv/cache');
    expect(dirOf({ CACHE_DIR: '' })).toBe('/home/tester/.cache/brainql');
  });

  it('refuses a relative path, with the other bad variables', () => {
    expect(errorOf({ CACHE_DIR: 'cache', PORT: 'x' }).split('\n')).toEqual([
      'Invalid configuration:',
      '  PORT="x": PORT must be an integer from 0 to 65535',
      '  CACHE_DIR="cache": must be an absolute path',
    ]);
    expect(errorOf({ CACHE_DIR: './cache' })).toBe(
      'Invalid configuration:\n  CACHE_DIR="./cache": must be an absolute path',
    );
  });

  it('refuses a folder in or under a brain root of GEMINI_HOME, whether it exists or not', () => {
    const env = { GEMINI_HOME: '/g/' };
    const refused = [
      ['/g/antigravity/brain', '/g/antigravity/brain', '/g/antigravity/brain'],
      ['/g/antigravity/brain/s/', '/g/antigravity/brain/s', '/g/antigravity/brain'],
      ['/g/x/../cli/brain/c', '/g/cli/brain/c', '/g/cli/brain'],
    ];
    for (const [value, dir, root] of refused)
      expect(errorOf({ ...env, CACHE_DIR: value })).toBe(
        `Invalid configuration:\n  CACHE_DIR=${JSON.stringify(value)}: the cache directory ${dir} ` +
          `is inside the brain root ${root} (nothing under a brain root is ever written); set ` +
          'CACHE_DIR to a folder outside it',
      );
    for (const dir of ['/g', '/g/cache', '/g/antigravity', '/g/antigravity/brains', '/g/brain'])
      expect(dirOf({ ...env, CACHE_DIR: dir })).toBe(dir);
  });

  it('refuses a folder under a BRAIN_ROOTS entry, compared by whole path segments', () => {
    const env = { GEMINI_HOME: '/g', BRAIN_ROOTS: '/r/team/brain, /mnt/b/' };
    expect(errorOf({ ...env, CACHE_DIR: '/mnt/b/cache' })).toBe(
      'Invalid configuration:\n  CACHE_DIR="/mnt/b/cache": the cache directory /mnt/b/cache is ' +
        'inside the brain root /mnt/b (nothing under a brain root is ever written); set CACHE_DIR ' +
        'to a folder outside it',
    );
    expect(errorOf({ ...env, CACHE_DIR: '/r/team/brain' })).toContain(
      'is inside the brain root /r/team/brain',
    );
    expect(dirOf({ ...env, CACHE_DIR: '/mnt/bc' })).toBe('/mnt/bc');
    expect(dirOf({ ...env, CACHE_DIR: '/r/team' })).toBe('/r/team');
  });

  it('names XDG_CACHE_HOME or the unset default when the default falls in a brain root', () => {
    expect(errorOf({ GEMINI_HOME: '/g', XDG_CACHE_HOME: '/g/ide/brain' })).toBe(
      'Invalid configuration:\n  XDG_CACHE_HOME="/g/ide/brain": the cache directory ' +
        '/g/ide/brain/brainql is inside the brain root /g/ide/brain (nothing under a brain root ' +
        'is ever written); set CACHE_DIR to a folder outside it',
    );
    expect(errorOf({ BRAIN_ROOTS: '/home/tester' })).toBe(
      'Invalid configuration:\n  CACHE_DIR (unset, so ~/.cache/brainql): the cache directory ' +
        '/home/tester/.cache/brainql is inside the brain root /home/tester (nothing under a brain ' +
        'root is ever written); set CACHE_DIR to a folder outside it',
    );
  });

  it('refuses a folder that reaches a brain root through a symlink', () => {
    const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'brainql-cache-')));
    try {
      const home = path.join(tmp, 'home');
      const root = path.join(home, 'antigravity-ide', 'brain');
      mkdirSync(path.join(root, 'inside'), { recursive: true });
      symlinkSync(path.join(root, 'inside'), path.join(tmp, 'to-root'));
      symlinkSync(home, path.join(tmp, 'home-link'));
      const refusal = (value: string, dir: string) =>
        `Invalid configuration:\n  CACHE_DIR=${JSON.stringify(value)}: the cache directory ${dir} ` +
        `is inside the brain root ${root} (nothing under a brain root is ever written); set ` +
        'CACHE_DIR to a folder outside it';
      // A link into a root, whether the folder below it exists yet or not.
      for (const dir of [path.join(tmp, 'to-root'), path.join(tmp, 'to-root', 'a', 'b')])
        expect(errorOf({ GEMINI_HOME: home, CACHE_DIR: dir })).toBe(refusal(dir, dir));
      // GEMINI_HOME named through a link, the cache folder through the real path.
      const real = path.join(root, 'c');
      expect(errorOf({ GEMINI_HOME: path.join(tmp, 'home-link'), CACHE_DIR: real })).toBe(
        refusal(real, real),
      );
      expect(dirOf({ GEMINI_HOME: home, CACHE_DIR: path.join(tmp, 'cache') })).toBe(
        path.join(tmp, 'cache'),
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('does not create the folder (the index does, or falls back to memory)', () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'brainql-cache-'));
    try {
      expect(dirOf({ CACHE_DIR: path.join(tmp, 'a', 'b') })).toBe(path.join(tmp, 'a', 'b'));
      expect(existsSync(path.join(tmp, 'a'))).toBe(false);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('WATCH, POLL_MS, MAX_SUBSCRIPTIONS', () => {
  it('default to auto, 1000 ms and 100', () => {
    expect(loadConfig({}).live).toEqual({ watch: 'auto', pollMs: 1000, maxSubscriptions: 100 });
    expect(loadConfig({ WATCH: 'poll', POLL_MS: '250', MAX_SUBSCRIPTIONS: '7' }).live).toEqual({
      watch: 'poll',
      pollMs: 250,
      maxSubscriptions: 7,
    });
    expect(loadConfig({ WATCH: 'off' }).live.watch).toBe('off');
  });

  it('names every bad one in one message', () => {
    expect(
      errorOf({ WATCH: 'inotify', POLL_MS: '10', MAX_SUBSCRIPTIONS: 'many' }).split('\n'),
    ).toEqual([
      'Invalid configuration:',
      '  WATCH="inotify": WATCH must be one of auto, poll, off',
      '  POLL_MS="10": POLL_MS must be an integer from 50 to 3600000 (milliseconds)',
      '  MAX_SUBSCRIPTIONS="many": MAX_SUBSCRIPTIONS must be an integer from 1 to 100000 (per key or client address)',
    ]);
  });
});

describe('INGEST_DIR, MAX_INGEST_MB, MAX_INGEST_BODY_MB', () => {
  let tmp: string;
  beforeEach(() => {
    jest.spyOn(os, 'homedir').mockReturnValue('/home/tester');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'brainql-ingest-config-'));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(tmp, { recursive: true, force: true });
  });
  const pushKeys = () => {
    const file = path.join(tmp, 'keys.json');
    const sha256 = 'a'.repeat(64);
    writeFileSync(file, JSON.stringify([{ name: 'ci-runner', sha256, push: true }]));
    return file;
  };

  it('defaults to $XDG_DATA_HOME/brainql/ingest, else ~/.local/share, 10 GiB, 64 MiB; off without a push key', () => {
    expect(loadConfig({}).ingest).toEqual({
      enabled: false,
      dir: '/home/tester/.local/share/brainql/ingest',
      maxSourceBytes: 10_240 * 1024 * 1024,
      maxBodyBytes: 64 * 1024 * 1024,
    });
    expect(loadConfig({ XDG_DATA_HOME: '/var/data' }).ingest.dir).toBe('/var/data/brainql/ingest');
    expect(loadConfig({ XDG_DATA_HOME: 'rel' }).ingest.dir).toBe(
      '/home/tester/.local/share/brainql/ingest',
    );
    const on = loadConfig({
      API_KEYS_FILE: pushKeys(),
      INGEST_DIR: path.join(tmp, 'in'),
      MAX_INGEST_MB: '5',
      MAX_INGEST_BODY_MB: '2',
    }).ingest;
    expect(on).toEqual({
      enabled: true,
      dir: path.join(tmp, 'in'),
      maxSourceBytes: 5 * 1024 * 1024,
      maxBodyBytes: 2 * 1024 * 1024,
    });
  });

  it('refuses at start a keys file whose push key names differ only in case, naming both', () => {
    const file = path.join(tmp, 'case-keys.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'laptop', sha256: 'a'.repeat(64), push: true },
        { name: 'LAPTOP', sha256: 'b'.repeat(64), push: true },
      ]),
    );
    expect(errorOf({ API_KEYS_FILE: file }).split('\n')).toEqual([
      'Invalid configuration:',
      '  API_KEYS_FILE: entry 1: the push key names "laptop" and "LAPTOP" differ only in case; ' +
        'sources are folders, which a case-insensitive file system would merge: rename one',
    ]);
  });

  it('names every bad one in one message: relative, a file, inside a brain home, bad numbers', () => {
    const file = path.join(tmp, 'plain');
    writeFileSync(file, 'x');
    expect(
      errorOf({ INGEST_DIR: 'ingest', MAX_INGEST_MB: '0', MAX_INGEST_BODY_MB: 'big' }).split('\n'),
    ).toEqual([
      'Invalid configuration:',
      '  MAX_INGEST_MB="0": MAX_INGEST_MB must be an integer from 1 to 1073741824 (MiB per source)',
      '  MAX_INGEST_BODY_MB="big": MAX_INGEST_BODY_MB must be an integer from 1 to 4096 (MiB per request)',
      '  INGEST_DIR="ingest": must be an absolute path',
    ]);
    expect(errorOf({ INGEST_DIR: file }).split('\n')[1]).toBe(
      `  INGEST_DIR=${JSON.stringify(file)}: ${file} exists and is not a directory`,
    );
    const home = path.join(tmp, 'home');
    mkdirSync(home);
    expect(errorOf({ GEMINI_HOME: home, INGEST_DIR: path.join(home, 'x') }).split('\n')[1]).toBe(
      `  INGEST_DIR=${JSON.stringify(path.join(home, 'x'))}: overlaps the brain home or root ` +
        `${realpathSync(home)} (nothing under a brain root is ever written, and a home inside it ` +
        'would read as a source); use a folder apart',
    );
  });
});

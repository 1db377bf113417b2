import { hashKey, loadApiKeysFrom, matchKey, newKey, type ApiKey } from './api-keys';
import { Principal } from './principal';
import type { BrainRoot } from '../brain/types';

const hex = (key: string) => hashKey(key).toString('hex');
const entry = (name: string, key: string, flavors?: string[]) => ({
  name,
  sha256: hex(key),
  ...(flavors ? { flavors } : {}),
});

function keysOf(entries: unknown): ApiKey[] {
  const loaded = loadApiKeysFrom(JSON.stringify(entries));
  if ('errors' in loaded) throw new Error(loaded.errors.join('; '));
  return loaded.keys;
}

describe('loadApiKeysFrom', () => {
  it('reads names, hashes and optional flavors', () => {
    const keys = keysOf([entry('all', 'k1'), entry('ci', 'k2', ['antigravity-acp'])]);
    expect(
      keys.map((k) => [k.name, k.sha256.toString('hex'), k.flavors && [...k.flavors]]),
    ).toEqual([
      ['all', hex('k1'), null],
      ['ci', hex('k2'), ['antigravity-acp']],
    ]);
  });

  it('names every bad entry', () => {
    expect(
      loadApiKeysFrom(
        JSON.stringify([
          { name: '', sha256: hex('a') },
          { name: 'x', sha256: 'bql_not-a-hash' },
          { name: 'y', sha256: hex('b'), flavors: 'antigravity-acp' },
          entry('z', 'c'),
          entry('z', 'd'),
        ]),
      ),
    ).toEqual({
      errors: [
        'entry 0: "name" must be a non-empty string',
        'entry 1: "sha256" must be 64 hex digits (the key\'s SHA-256, not the key)',
        'entry 2: "flavors" must be an array of strings when present',
        'entry 4: the name "z" is used twice',
      ],
    });
    expect(loadApiKeysFrom('[]')).toEqual({ errors: ['holds no keys'] });
  });

  it('refuses a flavor or source no folder can have: the key would read nothing', () => {
    expect(
      loadApiKeysFrom(
        JSON.stringify([
          { ...entry('a', 'a'), flavors: ['antigravity-ide', '../x', '..', 'a\\b', 'tab\tname'] },
          { ...entry('b', 'b'), flavors: ['.hidden', 'antigravity-IDE'], sources: ['ci-runner'] },
          { ...entry('c', 'c'), sources: ['../up', ''] },
        ]),
      ),
    ).toEqual({
      errors: [
        'entry 0: "../x" cannot be a flavor: a root\'s folder name has no / \\ or control character',
        'entry 0: ".." cannot be a flavor: a root\'s folder name has no / \\ or control character',
        'entry 0: "a\\\\b" cannot be a flavor: a root\'s folder name has no / \\ or control character',
        'entry 0: "tab\\tname" cannot be a flavor: a root\'s folder name has no / \\ or control character',
        'entry 2: "../up" cannot be a source: a push key\'s name is 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit',
        'entry 2: "" cannot be a source: a push key\'s name is 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit',
      ],
    });
  });

  it('refuses push key names differing only in case (one folder on a case-insensitive disk)', () => {
    expect(
      loadApiKeysFrom(
        JSON.stringify([
          { ...entry('laptop', 'a'), push: true },
          { ...entry('LAPTOP', 'b'), push: true },
          entry('Laptop', 'c'), // a read key is no source: no folder
        ]),
      ),
    ).toEqual({
      errors: [
        'entry 1: the push key names "laptop" and "LAPTOP" differ only in case; sources are ' +
          'folders, which a case-insensitive file system would merge: rename one',
      ],
    });
    expect(loadApiKeysFrom('{}')).toEqual({
      errors: ['must be a JSON array of {"name","sha256","flavors"?,"sources"?,"push"?}'],
    });
  });
});

describe('matchKey', () => {
  const keys = keysOf([entry('a', 'key-a'), entry('b', 'key-b')]);

  it('finds the key a presented secret hashes to, and nothing for anything else', () => {
    expect(matchKey(keys, 'key-b')?.name).toBe('b');
    expect(matchKey(keys, 'key-c')).toBeNull();
    expect(matchKey(keys, hex('key-a'))).toBeNull(); // the hash itself is not the key
  });

  it('makes keys of 32 random bytes with a recognisable prefix', () => {
    const [k1, k2] = [newKey(), newKey()];
    expect(k1).toMatch(/^bql_[A-Za-z0-9_-]{43}$/);
    expect(k1).not.toBe(k2);
  });
});

describe('Principal', () => {
  const root = (flavor: string) => ({ flavor }) as BrainRoot;

  it('reads every root without flavors, only its flavors with them, nothing as nobody', () => {
    const ci = new Principal('ci', new Set(['antigravity-acp']));
    expect(
      [Principal.anonymous, ci, Principal.nobody].map((p) => [
        p.mayRead(root('antigravity-acp')),
        p.mayRead(root('antigravity-ide')),
        p.scopeKey,
      ]),
    ).toEqual([
      [true, true, '*'],
      [true, false, 'antigravity-acp'],
      [false, false, ''],
    ]);
  });
});

describe('push keys and source scopes', () => {
  const root = (flavor: string, source?: string): BrainRoot => ({
    path: `/r/${source ?? 'mounted'}/${flavor}/brain`,
    realPath: `/r/${source ?? 'mounted'}/${flavor}/brain`,
    flavor,
    environment: 'ACP',
    ...(source ? { source } : {}),
  });

  it('reads "push" and "sources"; a push key reads no root at all', () => {
    const [pusher, reader, both] = keysOf([
      { ...entry('ci-runner', 'k1'), push: true },
      { ...entry('audit', 'k2'), sources: ['ci-runner'] },
      { ...entry('acp-ci', 'k3', ['antigravity-acp']), sources: ['ci-runner'] },
    ]).map((k) => Principal.of(k));
    expect([
      pusher.push,
      pusher.scoped,
      pusher.mayRead(root('antigravity-acp', 'ci-runner')),
    ]).toEqual([true, true, false]);
    expect([
      reader.mayRead(root('antigravity-acp', 'ci-runner')),
      reader.mayRead(root('antigravity-acp', 'laptop')),
      reader.mayRead(root('antigravity-acp')),
    ]).toEqual([true, false, false]);
    expect([
      both.mayRead(root('antigravity-acp', 'ci-runner')),
      both.mayRead(root('antigravity-ide', 'ci-runner')),
    ]).toEqual([true, false]);
    expect([pusher.scopeKey, reader.scopeKey, both.scopeKey]).toEqual([
      '!push',
      '*|ci-runner',
      'antigravity-acp|ci-runner',
    ]);
  });

  it('names every bad push or sources entry', () => {
    expect(
      loadApiKeysFrom(
        JSON.stringify([
          { ...entry('a', 'k1'), push: 'yes' },
          { ...entry('../b', 'k2'), push: true },
          { ...entry('c', 'k3', ['antigravity-acp']), push: true },
          { ...entry('d', 'k4'), sources: 'ci' },
        ]),
      ),
    ).toEqual({
      errors: [
        'entry 0: "push" must be true or false when present',
        "entry 1: a push key's name is its source folder: 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit",
        'entry 2: a push key reads nothing, so "flavors" and "sources" do not apply',
        'entry 3: "sources" must be an array of strings when present',
      ],
    });
  });
});

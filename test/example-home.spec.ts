import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from './fixtures/brain-home';
import { buildExampleHome, EXAMPLE_HOME } from '../scripts/example-home';

function tree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, full), readFileSync(full).toString('base64'));
  }
  return files;
}

describe('example-home/', () => {
  it('is exactly what `npm run example-home` builds', () => {
    const fresh = path.join(makeTempDir('brainql-example-'), 'home');
    buildExampleHome(fresh);
    const built = tree(fresh);
    const committed = tree(EXAMPLE_HOME);
    expect([...committed.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [file, bytes] of built)
      expect({ file, bytes: committed.get(file) }).toEqual({ file, bytes });
    expect(built.size).toBe(38);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from './node-flags';

/** The start commands outside TypeScript carry the server's flags, in the same order. */

const ROOT = path.join(__dirname, '..', '..');

it('npm start runs dist/main.js with the server flags', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(pkg.scripts.start).toBe(['node', ...SERVER_NODE_FLAGS, 'dist/main.js'].join(' '));
});

it("the image's CMD runs dist/main.js with the server flags", () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const cmds = dockerfile
    .split('\n')
    .filter((l) => l.startsWith('CMD '))
    .map((l) => JSON.parse(l.slice(4)) as string[]);
  expect(cmds).toEqual([['node', ...SERVER_NODE_FLAGS, 'dist/main.js']]);
});

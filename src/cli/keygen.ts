import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { hashKey, loadApiKeysFrom, newKey } from '../auth/api-keys';

/**
 * `keygen --name NAME [--flavor FLAVOR ...] [--source SOURCE ...] [--push] [--write FILE]`: prints a new key (give it to the
 * client, once) and the entry for the API_KEYS_FILE array, which holds only the key's hash.
 * `--write` appends the entry to FILE (created when absent), so a keys file is never edited
 * by hand. Compiled into the image: `node dist/cli/keygen.js …`; in a checkout `npm run keygen -- …`.
 */

const USAGE =
  'usage: keygen --name NAME [--flavor FLAVOR ...] [--source SOURCE ...] [--write FILE]\n' +
  '       keygen --name SOURCE --push [--write FILE]   (a push key: brainql push, nothing else)';

const HELP = `${USAGE}

Prints a new API key (give it to its holder, once: it is not stored) and its entry for the
API_KEYS_FILE array, which holds only the key's SHA-256.
  --name NAME       who holds the key (unique in the file; a push key's name is its source)
  --flavor FLAVOR   the key reads only roots of this flavor (repeatable; default: every root)
  --source SOURCE   the key reads only sessions pushed by this source (repeatable)
  --push            a push key: brainql push may use it, every read route answers 403
  --write FILE      append the entry to FILE (created with mode 600), never editing it by hand
  -h, --help        this text`;

/** The flavors Antigravity writes; a key may name another (a root's parent folder), but a typo reads nothing. */
const KNOWN_FLAVORS = ['antigravity', 'antigravity-ide', 'antigravity-cli', 'antigravity-acp'];

/** The entries already in `file` ([] when it does not exist), or why they cannot be used. */
function existingEntries(file: string): unknown[] | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const checked = loadApiKeysFrom(text);
  if ('errors' in checked) return `${file} is not a usable keys file: ${checked.errors.join('; ')}`;
  return JSON.parse(text) as unknown[];
}

/** Replaces `file` in one rename, so a reader never sees half a keys file. */
function writeAtomically(file: string, text: string): void {
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}`,
  );
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

function main(): number {
  let values: {
    name?: string;
    flavor?: string[];
    source?: string[];
    push?: boolean;
    write?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        name: { type: 'string' },
        flavor: { type: 'string', multiple: true },
        source: { type: 'string', multiple: true },
        push: { type: 'boolean' },
        write: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.name) {
    console.error(USAGE);
    return 2;
  }
  const key = newKey();
  const entry: Record<string, unknown> = {
    name: values.name,
    sha256: hashKey(key).toString('hex'),
  };
  if (values.flavor?.length) entry.flavors = values.flavor;
  if (values.source?.length) entry.sources = values.source;
  if (values.push) entry.push = true;
  // The same rules the server applies when it loads the file, before anything is printed.
  const checked = loadApiKeysFrom(JSON.stringify([entry]));
  if ('errors' in checked) {
    console.error(`${checked.errors.join('\n').replace(/^entry 0: /gm, '')}\n${USAGE}`);
    return 2;
  }
  for (const flavor of values.flavor ?? [])
    if (!KNOWN_FLAVORS.includes(flavor))
      console.error(
        `note: "${flavor}" is not a flavor Antigravity writes (${KNOWN_FLAVORS.join(', ')}); ` +
          'the key reads only roots of that exact name',
      );
  if (values.write) {
    const entries = existingEntries(values.write);
    if (typeof entries === 'string') {
      console.error(entries);
      return 1;
    }
    if (entries.some((e) => (e as { name?: unknown }).name === values.name)) {
      console.error(`${values.write} already has a key named "${values.name}"`);
      return 1;
    }
    writeAtomically(values.write, `${JSON.stringify([...entries, entry], null, 2)}\n`);
    console.log(`key (send as "Authorization: Bearer <key>"; shown once, not stored):\n${key}\n`);
    console.log(
      `added "${values.name}" to ${values.write} (${entries.length + 1} keys); restart the server to load it`,
    );
    return 0;
  }
  console.log(`key (send as "Authorization: Bearer <key>"; shown once, not stored):\n${key}\n`);
  console.log(`entry for the API_KEYS_FILE array:\n${JSON.stringify(entry)}`);
  return 0;
}

process.exitCode = main();

import { parseArgs } from 'node:util';
import { hashKey, newKey } from '../src/auth/api-keys';

/**
 * `npm run keygen -- --name NAME [--flavor FLAVOR ...]`: prints a new key (give it to the
 * client, once) and the entry to add to the API_KEYS_FILE array (it holds only the hash).
 */
function main(): number {
  let values: { name?: string; flavor?: string[] };
  try {
    ({ values } = parseArgs({
      options: { name: { type: 'string' }, flavor: { type: 'string', multiple: true } },
    }));
  } catch (err) {
    console.error(
      `${(err as Error).message}\nusage: npm run keygen -- --name NAME [--flavor FLAVOR ...]`,
    );
    return 2;
  }
  if (!values.name) {
    console.error('usage: npm run keygen -- --name NAME [--flavor FLAVOR ...]');
    return 2;
  }
  const key = newKey();
  const entry: Record<string, unknown> = {
    name: values.name,
    sha256: hashKey(key).toString('hex'),
  };
  if (values.flavor?.length) entry.flavors = values.flavor;
  console.log(`key (send as "Authorization: Bearer <key>"; shown once, not stored):\n${key}\n`);
  console.log(`entry for the API_KEYS_FILE array:\n${JSON.stringify(entry)}`);
  return 0;
}

process.exitCode = main();

// Measure what production runs: graphql-js without its development checks.
import '../src/production';
import { ensureData, type Size } from './generate';
import { machine, mb, ms, printTable, type Row } from './report';
import { benchActivity } from './activity.bench';
import { benchApi } from './api.bench';
import { benchConsole } from './console.bench';
import { benchCliOnly } from './cli.bench';
import { benchIndexHome, benchIndexPart } from './index.bench';
import { benchLive } from './live.bench';
import { benchPush } from './push.bench';
import { benchRedaction } from './redaction.bench';
import { benchRedactionOffload } from './redaction-offload.bench';
import { benchIndex, benchSessions } from './store.bench';

/**
 * `npm run bench -- --size small|large [--only index|index-page|index-build|cli|push|console|store|redaction]`:
 * generates (or reuses) data, measures, prints.
 */

const ONLY = [
  'index',
  'index-page',
  'index-build',
  'cli',
  'push',
  'console',
  'store',
  'redaction',
] as const;
type Only = (typeof ONLY)[number];
const USAGE = `usage: npm run bench -- [--size small|large] [--only ${ONLY.join('|')}]`;

/** Anything else (`--help`, a typo) prints the usage: an unread flag used to run everything. */
function checkArgs(argv: string[]): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--size=')) continue;
    if (a === '--size' || a === '--only') {
      i++;
      continue;
    }
    if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    console.error(`${USAGE}\n(unknown argument ${a})`);
    process.exit(2);
  }
}

function sizeArg(argv: string[]): Size {
  const i = argv.findIndex((a) => a === '--size' || a.startsWith('--size='));
  const value = i === -1 ? 'small' : argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  if (value !== 'small' && value !== 'large') {
    console.error(`usage: npm run bench -- --size small|large (got ${value})`);
    process.exit(2);
  }
  return value;
}

/**
 * `--only index`: the home index's figures (9-13, 16) alone, without the store's data.
 * `--only cli`: figure 16 alone, on the index home and an index file `brainql stats` builds
 * (once; kept beside the data). `--only push`: figure 20 alone (BENCH_PUSH_SESSIONS sessions).
 * `--only console`: figures 17-19 alone (the store's data is reused or made for the 5,000-step
 * session's home). `--only index-page`: figure 9p alone (the page while the server's first build
 * runs, INDEX_ENGINE's engine). `--only index-build`: figure 9's build from nothing alone, FTS5
 * then trigram (no baselines, searches or later figures): what an A/B of the indexer needs.
 */
function onlyArg(argv: string[]): Only | null {
  const i = argv.indexOf('--only');
  if (i === -1) return null;
  const value = argv[i + 1];
  if (!(ONLY as readonly string[]).includes(value)) {
    console.error(`${USAGE} (got --only ${value})`);
    process.exit(2);
  }
  return value as Only;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  checkArgs(argv);
  const size = sizeArg(argv);
  const only = onlyArg(argv);
  // The trigram engine's rows (a second index build) belong to `--only index`; the whole bench
  // runs them when asked (BENCH_TRIGRAM=1), so CI's small bench stays within its time limit.
  process.env.BENCH_TRIGRAM ??= only === 'index' ? '1' : '0';
  console.log(machine());
  const rows: Row[] = [];
  if (only === 'store' || only === 'redaction') {
    // Figures 1-4 (the store's line index and reads) or 7 (the redactor) alone.
    if (only === 'redaction')
      rows.push(...(await benchRedaction()), ...(await benchRedactionOffload()));
    else await benchIndex(ensureData(size), rows);
    printTable(`brainql ${only} bench, size ${size}`, rows, []);
    return;
  }
  if (only === 'index-page' || only === 'index-build') {
    rows.push(...(await benchIndexPart(size, only)));
    printTable(`brainql ${only} bench, size ${size}`, rows, []);
    return;
  }
  if (only === 'console') {
    rows.push(...(await benchConsole(ensureData(size).root, size)));
    printTable(`brainql console bench, size ${size}`, rows, []);
    return;
  }
  if (!only) {
    const data = ensureData(size);
    const how = data.reused ? 'reused' : `generated in ${ms(data.ms)}`;
    console.log(`data (${size}): ${data.root}, ${how}`);
    console.log(`  big file ${mb(data.bigBytes)}, ${data.sessions} sessions`);
    await benchIndex(data, rows);
    await benchSessions(data, rows);
    await benchApi(data, rows);
    await benchActivity(data, rows);
    rows.push(...(await benchRedaction()));
    rows.push(...(await benchRedactionOffload()));
    rows.push(...(await benchConsole(data.root, size)));
  }
  // Figure 20 (collecting): 100 sessions at small size, 2,000 at large (the count).
  const pushSessions = Number(process.env.BENCH_PUSH_SESSIONS ?? (size === 'small' ? 100 : 2000));
  const indexNotes =
    only === 'push'
      ? await benchPush(pushSessions, rows)
      : only === 'cli'
        ? benchCliOnly(size, rows)
        : await benchIndexHome(size, rows);
  if (!only) rows.push(...(await benchLive()));
  if (!only) indexNotes.push(...(await benchPush(pushSessions, rows)));
  // Figures in order (1-4 store, 5-6 API, 7 redaction, 8 activity, 9-12 home index, 13 stats,
  // 14-15 live, 16 the command line's list, 17-19 the console, 20 push); the append runs with the line index, before 3.
  rows.sort((a, b) => parseInt(a.figure, 10) - parseInt(b.figure, 10));
  const notes = [
    'page cache warm throughout (wc -l reads the big file first; a warm-up child reads the home).',
    'GB/s is 10^9 bytes per second; the cold-start child runs transpiled JS like dist/, not ts-node.',
    'throughput uses the best of 5 (a shared machine only ever adds time); medians are beside.',
    'figures 5-6 run while the server builds its home index in the background (requests share the core with it).',
  ];
  notes.push(...indexNotes);
  if (size === 'small') {
    notes.push(
      'targets are set for --size large (1 GiB, 10,000 sessions); at small size they are indicative only.',
    );
  }
  printTable(`brainql store bench, size ${size}`, rows, notes);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

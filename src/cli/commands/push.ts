import { Option, type Command } from 'commander';
import * as path from 'node:path';
import { homeSettings } from '../../config/home-settings';
import { Redactor } from '../../redaction/redactor';
import { CliError, Exit } from '../errors';
import { repeated } from '../options';
import { IngestClient, IngestHttpError, Unreachable } from '../push/ingest-client';
import { localSessions, type LocalSession, type Selection } from '../push/local-files';
import { PushState, serverTag } from '../push/push-state';
import { newTally, Pusher, type Tally } from '../push/pusher';
import { watchAndPush } from '../push/watch';
import { pushProgress } from '../push/push-progress';

interface PushOptions {
  url?: string;
  key?: string;
  session: string[];
  flavor: string[];
  watch?: boolean;
  redact?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** Requests of at most this many bytes: well under the server's default MAX_INGEST_BODY_MB. */
const PART_BYTES = 8 * 1024 * 1024;
/** Sessions pushed at once: the server fsyncs every file, so a few in flight keep it busy. */
const PARALLEL = 8;

export function registerPush(program: Command): void {
  program
    .command('push')
    .description(
      "send the local home's sessions to a brainql server (push key): only what it lacks",
    )
    .option('--url <url>', 'the brainql server to push to')
    .addOption(new Option('--key <key>', 'a push key (keygen --push)').env('BRAINQL_KEY'))
    .option('--session <id>', 'only this session (id or prefix; repeatable)', repeated(), [])
    .option('--flavor <flavor>', 'only sessions of this flavor (repeatable)', repeated(), [])
    .option('--watch', 'keep following the home and push new lines as they are written')
    .option('--redact', 'mask secrets before they leave this machine (same redactor as the server)')
    .option('--dry-run', 'say what would be sent, send nothing')
    .option('--json', 'print {"sessions","files","bytesSent","skipped","failed"}')
    .action(async (o: PushOptions) => {
      const failed = await push(o);
      // The summary (and each failure) is printed; the exit code says it went wrong.
      if (failed > 0) throw new CliError(Exit.FAILED, `${failed} files could not be pushed`);
    });
}

/** Pushes (and with --watch keeps pushing); the number of files that failed. */
async function push(o: PushOptions): Promise<number> {
  if (!o.url) throw new CliError(Exit.USAGE, 'push needs --url URL (the server to push to)');
  if (o.watch && o.dryRun)
    throw new CliError(Exit.USAGE, '--watch and --dry-run do not go together');
  const settings = homeSettings();
  const client = new IngestClient(o.url, o.key);
  const state = new PushState(path.join(settings.cacheDir, 'push-state.json')).load();
  const redactor = o.redact
    ? new Redactor({ enabled: true, extraPatterns: settings.redactPatterns })
    : null;
  const tally = newTally();
  const bar = pushProgress(!o.json && !o.watch);
  const pusher = new Pusher({
    client,
    state,
    partBytes: PART_BYTES,
    dryRun: o.dryRun ?? false,
    redactor,
    maskDir: path.join(settings.cacheDir, 'push-masked'),
    onProgress: (t) => bar.update(t),
    server: serverTag(client.base.href, o.key),
  });
  const pick = { ids: o.session, flavors: o.flavor };
  const select = () => localSessions(settings.geminiHome, settings.brainRoots, pick);
  const sessions = async () => (await select()).sessions;
  const pushAll = async (list: LocalSession[], into: Tally) => {
    pusher.newRun();
    let next = 0;
    const lane = async () => {
      while (next < list.length) await pusher.pushSession(list[next++], into);
    };
    try {
      await Promise.all(Array.from({ length: Math.min(PARALLEL, list.length) }, lane));
    } finally {
      state.save();
    }
  };
  let away = false;
  const chosen = await select();
  checkSelection(o, settings.geminiHome, chosen);
  tally.skipped += chosen.withoutTranscript;
  try {
    const list = chosen.sessions;
    bar.total(list.length);
    await pushAll(list, tally);
  } catch (err) {
    bar.stop();
    // --watch outlasts a server that is away: the watch loop retries with backoff.
    if (!(o.watch && err instanceof Unreachable)) {
      // A script reading --json gets what was done before the run ended.
      if (o.json) report(o, tally);
      throw serverError(err);
    }
    process.stderr.write(`push: cannot reach the server (${err.message}); will retry\n`);
    away = true;
  }
  bar.stop();
  if (!away) report(o, tally);
  if (!o.watch) return tally.failed.length;

  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
  await watchAndPush({
    geminiHome: settings.geminiHome,
    brainRoots: settings.brainRoots,
    sessions,
    push: async (list) => {
      const t = newTally();
      await pushAll(list, t);
      if (t.files > 0 || t.failed.length > 0) report(o, t);
    },
    onRetry: (err, ms) => process.stderr.write(`push: ${err.message}; retrying in ${ms} ms\n`),
    signal: stop.signal,
    startWithSweep: away,
  }).catch((err: unknown) => {
    throw serverError(err);
  });
  return 0;
}

/**
 * A run that would push nothing because of how it was asked ends in an error rather than
 * "0 sessions": no brain home at all (exit 2, as the other commands' "no configured home"),
 * a --flavor no root has or a --session that matches nothing (exit 1). With --watch a named
 * session may still appear, so only its flavor is checked.
 */
function checkSelection(o: PushOptions, geminiHome: string, chosen: Selection): void {
  if (chosen.roots === 0)
    throw new CliError(
      Exit.USAGE,
      `no brain home in ${geminiHome} (set GEMINI_HOME or BRAIN_ROOTS): nothing to push`,
    );
  const missing = o.flavor.filter((f) => !chosen.flavors.includes(f));
  if (missing.length > 0)
    throw new CliError(
      Exit.FAILED,
      `no brain root of flavor ${missing.join(', ')} (the home has: ${chosen.flavors.join(', ')})`,
    );
  if (!o.watch && chosen.unmatchedIds.length > 0)
    throw new CliError(
      Exit.FAILED,
      `no session matches ${chosen.unmatchedIds.join(', ')}` +
        (o.flavor.length > 0 ? ` (flavor ${o.flavor.join(', ')})` : ''),
    );
}

function report(o: PushOptions, t: Tally): void {
  const { sessions, files, bytesSent, skipped, failed } = t;
  if (o.json) {
    const doc = { sessions, files, bytesSent, skipped, failed, recovered: t.recovered };
    process.stdout.write(
      `${JSON.stringify(o.dryRun ? { ...doc, wouldSend: t.wouldSend } : doc)}\n`,
    );
    return;
  }
  const sent = o.dryRun ? `would send ${t.wouldSend} bytes` : `sent ${bytesSent} bytes`;
  process.stdout.write(
    `${sessions} sessions, ${files} files ${sent}, ${skipped} skipped (unchanged or without a transcript)` +
      (failed.length ? `, ${failed.length} failed` : '') +
      '\n',
  );
  for (const f of failed)
    process.stderr.write(`${f.session} ${f.path}: ${f.message} (${f.code})\n`);
}

/** Authentication and reachability end the run with exit 4, like the other commands. */
function serverError(err: unknown): unknown {
  if (err instanceof IngestHttpError)
    return new CliError(Exit.SERVER, `${err.message} (${err.code})`);
  if (err instanceof Unreachable)
    return new CliError(Exit.SERVER, `cannot reach the server: ${err.message}`);
  return err;
}

import type { Command } from 'commander';
import { flavorOption, withSession, type FlavorOption } from '../flavor';
import { SESSION } from '../../operations/documents';
import { requireSession } from '../session';
import { CliError, Exit } from '../errors';
import { seconds, withCommon, type CommonOptions } from '../options';
import { localTime } from '../output/format';
import type { Context } from './context';
import { requireConfiguredHome } from '../source/source';
import { follow, type Rec } from './wait-feeds';

interface WaitOptions extends CommonOptions, FlavorOption {
  idle: number;
  timeout?: number;
}

export function registerWait(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('wait')
      .description(
        'return when the session has had no new line for --idle seconds and its last record is ' +
          'not RUNNING (exit 1 when --timeout passes first)',
      )
      .argument('<id>', 'session id or unique prefix (4+ characters)')
      .addOption(flavorOption())
      .option('--idle <seconds>', 'quiet time that counts as done', seconds, 30)
      .option('--timeout <seconds>', 'give up after this long (exit 1)', seconds),
  ).action(async (id: string, o: WaitOptions) => {
    await withSession(ctx, o, async (source, out) => {
      await requireConfiguredHome(source, 'wait');
      type S = { session: { id: string; updatedAt: string; stepCount: number } | null };
      const session = requireSession((await source.run<S>(SESSION, { id })).session);
      const result = await waitIdle(
        source,
        session,
        o.idle * 1000,
        o.timeout === undefined ? null : o.timeout * 1000,
      );
      const { idle, ...state } = result;
      if (out.json) out.value({ id: session.id, idle, ...state });
      else if (idle)
        out.line(
          `${session.id}: idle (${state.stepCount} records, last line ${localTime(state.lastLineAt)})`,
        );
      // A timeout prints the state it ended in (as --json has to: one document), then fails.
      if (!idle)
        throw new CliError(Exit.FAILED, `${session.id} was still active after ${o.timeout ?? 0} s`);
    });
  });
}

interface Idle {
  /** False when --timeout passed first. */
  idle: boolean;
  stepCount: number;
  lastStatus: string | null;
  lastLineAt: string;
}

/**
 * Follows the session until it is idle. Records replayed at the start are not news: the last
 * line's time is the session's updatedAt until a record beyond its first stepCount arrives.
 */
function waitIdle(
  source: Parameters<typeof follow>[0],
  session: { id: string; updatedAt: string; stepCount: number },
  idleMs: number,
  timeoutMs: number | null,
): Promise<Idle> {
  const started = Date.now();
  let lastLineAt = Date.parse(session.updatedAt);
  // One rule in both modes: the quiet time is counted by this process's clock, from the start
  // or the last new line it saw arrive. updatedAt is the records' created_at, which says
  // nothing of when lines arrive: a remote wait counted from it was "idle" 1.3 s into
  // --idle 20 on a session whose last line was old while new ones were being appended.
  let lastNews = started;
  let count = 0;
  let lastStatus: string | null = null;
  return new Promise<Idle>((resolve, reject) => {
    let feed: { stop(): void } | null = null;
    const finish = (err: unknown, value?: Idle) => {
      clearInterval(check);
      feed?.stop();
      if (err) reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
      else resolve(value as Idle);
    };
    const onRecord = (r: Rec) => {
      if (r.position >= session.stepCount) lastNews = Date.now();
      // What "last line" prints, in both modes: the newest record's created_at (as updatedAt),
      // never an arrival time (a remote feed's records arrive as local polls read them).
      const at = Date.parse(r.createdAt);
      if (Number.isFinite(at)) lastLineAt = Math.max(lastLineAt, at);
      count = Math.max(count, r.position + 1);
      lastStatus = r.status;
    };
    let caughtUp = session.stepCount === 0;
    const check = setInterval(() => {
      const now = Date.now();
      caughtUp ||= count >= session.stepCount;
      const state = (idle: boolean): Idle => ({
        idle,
        stepCount: count,
        lastStatus,
        lastLineAt: new Date(lastLineAt).toISOString(),
      });
      if (caughtUp && lastStatus !== 'RUNNING' && now - lastNews >= idleMs) {
        finish(null, state(true));
      } else if (timeoutMs !== null && now - started >= timeoutMs) {
        finish(null, state(false));
      }
    }, 100);
    feed = follow(source, session.id, onRecord, (err) => finish(err));
  });
}

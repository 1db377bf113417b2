import { Option } from 'commander';
import type { Context } from './commands/context';
import { CliError, Exit } from './errors';
import type { CommonOptions } from './options';
import type { Printer } from './output/printer';
import type { Run, Source } from './source/source';

/**
 * `--flavor` on the commands that open one session: the same id may be in several roots, and
 * without it a command opens the copy that wins (README, "shadowed"). With it, the copy in a
 * root of that flavor, as the API's `session(id:, flavor:)` and REST `?flavor=` pick it.
 */

export interface FlavorOption {
  flavor?: string;
}

/** The options of a command that opens one session. */
export type SessionOptions = CommonOptions & FlavorOption;

/** A fresh option for each command (commander keeps per-command state on it). */
export function flavorOption(
  description = "the session's copy in a root of this flavor (also one shadowed by another root's copy)",
): Option {
  return new Option('--flavor <flavor>', description);
}

/** `list --flavor` and the session commands say alike that a flavor is not among the roots. */
export function noSuchFlavor(unknown: readonly string[], served: readonly string[]): CliError {
  const known = served.length ? served.join(', ') : 'none';
  return new CliError(
    Exit.FAILED,
    `no such flavor: ${unknown.join(', ')} (flavors served: ${known})`,
  );
}

/** `ctx.with`, the source opening `o.flavor`'s copy of the session it is asked for. */
export function withSession(
  ctx: Context,
  o: SessionOptions,
  work: (source: Source, out: Printer) => Promise<void>,
): Promise<void> {
  return ctx.with(o, async (source, out) => work(await flavored(source, o.flavor), out));
}

/**
 * A document that takes the session's flavor (every shared session document does); the others
 * (index status, roots) pick no session and are sent as they are.
 */
const TAKES_FLAVOR = /\$flavor\s*:/;

/**
 * `source`, every session document it runs asked for `flavor`'s copy, and `raw` reading that
 * copy's line. A flavor no root served to this caller has is said first, as `list` says it: a
 * root a scoped key may not read is not among them, so its copy stays as absent as any other.
 */
export async function flavored(source: Source, flavor: string | undefined): Promise<Source> {
  if (flavor === undefined) return source;
  const served = await source.flavors();
  if (!served.includes(flavor)) throw noSuchFlavor([flavor], served);
  const run: Run = (document, variables) =>
    source.run(document, TAKES_FLAVOR.test(document) ? { ...variables, flavor } : variables);
  return {
    remote: source.remote,
    flavor,
    home: () => source.home(),
    run,
    list: (q) => source.list(q),
    raw: (id, index, compact) => source.raw(id, index, compact, flavor),
    flavors: () => source.flavors(),
    close: () => source.close(),
  };
}

import { READ_COST, type Args } from '../graphql/field-policy';

/** `StepOutput.text` reads `length` bytes (default 1 MiB) from `offset` of the output file. */

const DEFAULT_LENGTH = 1048576;
const CHUNK = 64 * 1024;

/** A file read plus one point per started 64 KiB asked for. */
export function outputTextCost(args: Args): number {
  const length = typeof args.length === 'number' && args.length > 0 ? args.length : DEFAULT_LENGTH;
  return READ_COST + Math.ceil(length / CHUNK);
}

/** The bytes the slice takes at least: what the file holds in the asked range. */
export function outputTextBytes(source: unknown, args: Args): number {
  const raw = (source as { info?: { size?: unknown } } | null)?.info?.size;
  const size = typeof raw === 'number' && raw > 0 ? raw : 0;
  const offset = typeof args.offset === 'number' ? args.offset : 0;
  const length = typeof args.length === 'number' ? args.length : DEFAULT_LENGTH;
  return Math.max(0, Math.min(length, size - offset));
}

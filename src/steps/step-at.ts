import type { ListedSession } from '../brain/catalog';
import type { Loaders } from '../graphql/loaders';
import type { StepParent } from './steps.service';

/**
 * The Step at a 0-based position of a session's compact view, through the request's records
 * loader (one batched store call for a page of hits or findings); null when the view has no
 * such record (the index may be ahead of or behind the files).
 */
export async function stepAtPosition(
  session: ListedSession,
  position: number | null,
  loaders: Loaders,
): Promise<StepParent | null> {
  if (position === null) return null;
  const records = await loaders.records.load(session.entry);
  const record = records[position];
  return record?.position === position ? { session, record } : null;
}

import { listSessionFiles } from '../brain/files';
import type { Redactor } from '../redaction/redactor';

/** Masked paths hold a redaction marker; no other path is looked up in the listing. */
const MARKER = '[REDACTED:';

/**
 * The real path of the listed session file whose masked path (as `SessionFile.path` answers it
 * with REDACT=on) is `shown`: a file whose name holds a secret is listed masked, and the link
 * built from that listing must still download it. Only the session's listed files are
 * candidates (the same walk and containment check as the listing), so this reaches nothing
 * the caller could not already list. `null` when no listed file masks to `shown`;
 * `{ several }` when more than one does (the masked name cannot tell them apart).
 */
export async function unmaskedPath(
  realDir: string,
  shown: string,
  redactor: Redactor,
): Promise<string | null | { several: number }> {
  if (!redactor.enabled || !shown.includes(MARKER)) return null;
  const { files } = await listSessionFiles(realDir);
  const matches = files.filter((f) => f.path !== shown && redactor.redactText(f.path) === shown);
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0].path : { several: matches.length };
}

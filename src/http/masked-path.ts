import { listArtifacts } from '../brain/artifacts';
import { listSessionFiles } from '../brain/files';
import { maybeMasked, unmaskedName } from '../redaction/masked-names';
import type { Redactor } from '../redaction/redactor';

/**
 * The real path of the session file or artifact whose masked path (as `SessionFile.path` and
 * `Artifact.name` answer it with REDACT=on) is `shown`: a file whose name holds a secret is
 * listed masked, and the link built from that listing must still download it (review 24: an
 * artifact `DB_PASSWORD=V.md`, listed `DB_PASSWORD=[REDACTED:password]`, answered 404). Only
 * the session's listed files and artifacts are candidates (the same walks and containment
 * checks as the listings), so this reaches nothing the caller could not already list. `null`
 * when none masks to `shown`; `{ several }` when more than one does.
 */
export async function unmaskedPath(
  realDir: string,
  shown: string,
  redactor: Redactor,
  values?: ReadonlyMap<string, string>,
): Promise<string | null | { several: number }> {
  if (!maybeMasked(shown, redactor)) return null;
  const [{ files }, { artifacts }] = await Promise.all([
    listSessionFiles(realDir),
    listArtifacts(realDir),
  ]);
  return unmaskedName(
    [...files.map((f) => f.path), ...artifacts.map((a) => a.name)],
    shown,
    redactor,
    values,
  );
}

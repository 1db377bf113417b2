import { secretNameTest } from '../../redaction/names';
import { BrainStore } from '../../brain/store';
import { recordLine } from '../../brain/transcript/record-line';
import type { StoreSource } from '../../config/brain-source';
import type { HomeSettings } from '../../config/home-settings';
import { maskText, withValues } from '../../http/masked-body';
import { unionValues } from '../../redaction/tier-values';
import { sessionValues } from '../../steps/session-values';
import { cutRecordOf, lineTwinValues } from '../../steps/twin-values';
import { Redactor } from '../../redaction/redactor';
import { CliError, Exit, notFound } from '../errors';

/**
 * A record's line from the local home through the store (resolution, containment and the
 * line index), masked as the file route masks a download, without loading the application.
 */
export async function localRaw(
  settings: HomeSettings,
  source: StoreSource,
  id: string,
  index: number,
  compact: boolean,
  /** `--flavor`: the copy in a root of this flavor, as the raw route's `?flavor=`. */
  flavor?: string,
): Promise<Buffer> {
  const store = new BrainStore({
    geminiHome: source.geminiHome,
    brainRoots: source.brainRoots,
    withhold: secretNameTest(settings),
  });
  const found = await store.resolve(
    id,
    (s) => flavor === undefined || s.entry.root.flavor === flavor,
  );
  if (found.kind === 'none') throw notFound(`session ${JSON.stringify(id)}`);
  if (found.kind === 'too-short')
    throw new CliError(
      Exit.USAGE,
      'a session id must be a full id or a prefix of at least 4 characters',
    );
  if (found.kind === 'ambiguous')
    throw new CliError(
      Exit.AMBIGUOUS,
      `"${id}" matches ${found.candidates.length} sessions`,
      found.candidates,
    );
  const line = await recordLine(store, found.session.entry, index, compact);
  if (line === 'no-view') throw notFound(`a transcript of session ${found.session.entry.id}`);
  if (line === null) throw notFound(`step ${index}`);
  const redactor = new Redactor({
    enabled: settings.redact,
    extraPatterns: settings.redactPatterns,
  });
  if (!redactor.enabled) return line;
  // A cut compact line masks its full twin's secret values too (../../steps/twin-values).
  const { entry } = found.session;
  // The first record of its step_index, as recordLine reads it.
  const record = compact ? cutRecordOf(line, 0, 0) : undefined;
  const values = await lineTwinValues(store, redactor, entry, record);
  // And every secret value of the session's transcript: an echo of another record's secret
  // (../../steps/session-values), waited for however long (this process learns it alone).
  const echoes = await sessionValues(store, redactor, entry);
  return withValues(maskText(line, redactor), redactor, unionValues([values, echoes])).body;
}

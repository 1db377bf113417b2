import { secretNameTest } from '../../redaction/names';
import { BrainStore } from '../../brain/store';
import { candidateLines } from '../../brain/transcript/candidate-lines';
import type { StoreSource } from '../../config/brain-source';
import type { HomeSettings } from '../../config/home-settings';
import { maskText } from '../../http/masked-body';
import { Redactor } from '../../redaction/redactor';
import { CliError, Exit, notFound } from '../errors';
import { lineStepIndex } from './raw-line';

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
): Promise<Buffer> {
  const store = new BrainStore({
    geminiHome: source.geminiHome,
    brainRoots: source.brainRoots,
    withhold: secretNameTest(settings),
  });
  const found = await store.resolve(id);
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
  const { realDir } = found.session.entry;
  const views = await store.views(found.session.entry);
  const view = compact ? views.compact : (views.full ?? views.compact);
  if (!view) throw notFound(`a transcript of session ${found.session.entry.id}`);
  const lines = await store.transcripts.index(realDir, view);
  // Candidates in runs (candidate-lines.ts): junk lines cannot be sniffed, so each is one.
  for await (const { line, bytes } of candidateLines(lines, lines.candidates(index))) {
    if (bytes === null) {
      if (lines.sniff(line) === index) await lines.readLine(line); // throws RecordTooLargeError
      continue;
    }
    if (lineStepIndex(bytes) !== index) continue;
    const redactor = new Redactor({
      enabled: settings.redact,
      extraPatterns: settings.redactPatterns,
    });
    return redactor.enabled ? maskText(bytes, redactor).body : bytes;
  }
  throw notFound(`step ${index}`);
}

import { Option, type Command } from 'commander';
import { flavorOption, withSession, type FlavorOption } from '../flavor';
import * as fs from 'node:fs';
import { once } from 'node:events';
import { EXPORT_SESSION, EXPORT_STEPS } from '../../operations/documents';
import type { ExportFormat } from '../../export/types';
import { CliError, Exit } from '../errors';
import { oneOf, withCommon, type CommonOptions } from '../options';
import { progress } from '../output/progress';
import type { Run } from '../source/source';
import type { Context } from './context';
import { refuseBrainTarget } from './export-target';

interface ExportOptions extends CommonOptions, FlavorOption {
  format: ExportFormat;
  o?: string;
}

export function registerExport(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('export')
      .description(
        'the session as a markdown transcript, JSON (every step, full tier) or ATIF v1.7',
      )
      .argument('<id>', 'session id or unique prefix (4+ characters)')
      .addOption(flavorOption())
      .addOption(
        new Option('--format <format>', 'markdown, json or atif')
          .argParser((v) => oneOf(['MARKDOWN', 'JSON', 'ATIF'])(v).toLowerCase())
          .makeOptionMandatory(),
      )
      .option('-o <file>', "write to FILE instead of standard output ('-': standard output)"),
    false,
  ).action(async (id: string, o: ExportOptions) => {
    if (o.o === '-') o.o = undefined;
    if (o.o !== undefined) await refuseBrainTarget(o.o);
    await withSession(ctx, o, async (source, out) => {
      const bar = progress('exporting steps');
      const counted = countingSteps(source.run, (done, total) => bar.update(done, total));
      try {
        // Loaded here: the exporters bring in graphql, which `list` must not pay for.
        const { exportSession } = await import('../../export/export-session');
        const file = await exportSession(counted, id, o.format);
        if (o.o === undefined) {
          // Safe for a terminal as written: the exporters show or escape what it would obey.
          for await (const chunk of file.chunks) out.write(chunk);
          return;
        }
        const bytes = await writeFile(o.o, file.chunks);
        if (out.json)
          out.value({ file: o.o, fileName: file.fileName, contentType: file.contentType, bytes });
        else process.stderr.write(`wrote ${o.o} (${bytes} bytes)\n`);
      } finally {
        bar.stop();
      }
    });
  });
}

/** `run`, telling how many of the session's steps the export has read so far. */
function countingSteps(run: Run, onProgress: (done: number, total: number) => void): Run {
  let total = 0;
  let done = 0;
  return async <T>(document: string, variables?: Record<string, unknown>): Promise<T> => {
    const data = await run<T>(document, variables);
    const session = (
      data as { session?: { stepCount?: number; steps?: { edges: unknown[] } } | null }
    ).session;
    if (document === EXPORT_SESSION) total = session?.stepCount ?? 0;
    if (document === EXPORT_STEPS) {
      done += session?.steps?.edges.length ?? 0;
      onProgress(done, total);
    }
    return data;
  };
}

/** Writes the chunks with backpressure; a failed export leaves no partial file behind. */
async function writeFile(path: string, chunks: AsyncIterable<string>): Promise<number> {
  let fd: number;
  try {
    fd = fs.openSync(path, 'w');
  } catch (err) {
    throw new CliError(
      Exit.FAILED,
      `cannot write ${path} (${(err as NodeJS.ErrnoException).code})`,
    );
  }
  const stream = fs.createWriteStream('', { fd });
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      bytes += Buffer.byteLength(chunk);
      if (!stream.write(chunk)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'finish');
    return bytes;
  } catch (err) {
    stream.destroy();
    fs.rmSync(path, { force: true });
    throw err;
  }
}

import type { Command } from 'commander';
import { flavorOption, withSession, type FlavorOption } from '../flavor';
import { integer, withCommon, type CommonOptions } from '../options';
import { clean } from '../output/style';
import type { Context } from './context';

interface RawOptions extends CommonOptions, FlavorOption {
  compact?: boolean;
}

export function registerRaw(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('raw')
      .description(
        "a record's JSON line as written, secrets masked (the full tier; the compact line when " +
          'there is no full view or with --compact)',
      )
      .argument('<id>', 'session id or unique prefix (4+ characters)')
      .argument('<index>', 'the step_index', integer(0))
      .addOption(flavorOption())
      .option('--compact', 'the compact transcript line'),
    false,
  ).action(async (id: string, index: number, o: RawOptions) => {
    await withSession(ctx, o, async (source, out) => {
      const line = await source.raw(id, index, o.compact === true);
      if (out.json) {
        // The record itself as the one JSON document (a line that is not JSON, as a string).
        let value: unknown;
        try {
          value = JSON.parse(line.toString('utf8'));
        } catch {
          value = { line: line.toString('utf8') };
        }
        return out.value(value);
      }
      // Byte for byte, not re-encoded, when piped. A terminal gets it cleaned as every other
      // command's text: a line may hold raw bidi overrides (valid JSON) or, broken, raw escapes.
      if (process.stdout.isTTY === true) out.write(`${clean(line.toString('utf8'))}\n`);
      else out.write(Buffer.concat([line, Buffer.from('\n')]));
    });
  });
}

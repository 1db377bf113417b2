import type { CommonOptions } from '../options';
import { Printer } from '../output/printer';
import { openSource, type Source } from '../source/source';

/** What every command gets: its source (local or --url) and the printer, closed when done. */
export interface Context {
  with(
    options: CommonOptions,
    work: (source: Source, out: Printer) => Promise<void>,
  ): Promise<void>;
}

export const context: Context = {
  async with(options, work) {
    const source = openSource(options);
    try {
      await work(source, new Printer(options));
    } finally {
      await source.close();
    }
  },
};

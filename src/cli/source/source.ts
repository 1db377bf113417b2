import { chooseSource, type StoreSource } from '../../config/brain-source';
import { homeSettings } from '../../config/home-settings';
import { CliError, errorFromCode, Exit } from '../errors';
import type { CommonOptions } from '../options';
import type { ListQuery, ListResult } from './list-types';
import { localList } from './local-list';
import { localRaw } from './local-raw';
import { RemoteClient } from './remote';
import { queryList, servedFlavors } from './remote-list';
import { remoteRaw } from './remote-raw';

/**
 * Where a command's answers come from: the local brain home (GEMINI_HOME, BRAIN_ROOTS) or a
 * server (--url). Both run the same GraphQL documents; `list` has a fast local path.
 */

export type Run = <T>(document: string, variables?: Record<string, unknown>) => Promise<T>;

export interface Source {
  readonly remote: RemoteClient | null;
  /** The root flavor whose copy of a session this source opens (--flavor); else the winner. */
  readonly flavor?: string;
  /**
   * What a local source reads: the configured home, or the shipped example when none is
   * configured and ~/.gemini holds no brain root (said once on stderr). A server: 'remote'.
   */
  home(): Promise<'configured' | 'example' | 'remote'>;
  run: Run;
  list(q: ListQuery): Promise<ListResult>;
  /** The masked bytes of step `index`'s line (full view unless `compact`), of `flavor`'s copy. */
  raw(id: string, index: number, compact: boolean, flavor?: string): Promise<Buffer>;
  /** The flavors of the roots this caller sees, sorted, each once. */
  flavors(): Promise<string[]>;
  close(): Promise<void>;
}

export function openSource(options: CommonOptions): Source {
  if (options.url !== undefined) {
    const client = new RemoteClient(options.url, options.key);
    return {
      remote: client,
      home: () => Promise.resolve('remote' as const),
      run: (doc, vars) => client.run(doc, vars),
      list: (q) => queryList((doc, vars) => client.run(doc, vars), q),
      raw: (id, index, compact, flavor) => remoteRaw(client, id, index, compact, flavor),
      flavors: () => servedFlavors((doc, vars) => client.run(doc, vars)),
      close: () => Promise.resolve(),
    };
  }
  return new LocalSource();
}

interface OperationErrorLike {
  code?: string;
  message: string;
  candidates?: string[];
}

/** The application built in this process (no port), on first use only: `list` never needs it. */
class LocalSource implements Source {
  readonly remote = null;
  private opened: Promise<{ run: Run; close(): Promise<void> }> | null = null;
  private readonly settings = homeSettings();
  /** The home this run reads, chosen once (`list` and `raw` read it; the app chooses alike). */
  private chosen: Promise<StoreSource> | null = null;

  private source(): Promise<StoreSource> {
    this.chosen ??= chooseSource(this.settings).then((s) => {
      if (s.isExample)
        process.stderr.write(
          `brainql: no brain home in ${this.settings.geminiHome} (set GEMINI_HOME or ` +
            `BRAIN_ROOTS): reading the example home ${s.geminiHome}\n`,
        );
      return s;
    });
    return this.chosen;
  }

  async home(): Promise<'configured' | 'example'> {
    try {
      return (await this.source()).isExample ? 'example' : 'configured';
    } catch {
      // A bad configuration is reported by the command's own read, in its words.
      return 'configured';
    }
  }

  run: Run = async (document, variables) => {
    await this.home();
    const app = await this.open();
    try {
      return await app.run(document, variables);
    } catch (err) {
      if (err instanceof CliError) throw err;
      const e = err as OperationErrorLike;
      if (typeof e.code === 'string') throw errorFromCode(e.code, e.message, e.candidates ?? []);
      throw err;
    }
  };

  async list(q: ListQuery): Promise<ListResult> {
    // Tools and step hours are known to the home index only, which the fast path may find
    // absent or behind: the application answers, through the same filter as a server's.
    if (q.tools.length || q.hours.length) return queryList(this.run, q);
    return localList(this.settings, await this.source(), q);
  }

  async raw(id: string, index: number, compact: boolean, flavor?: string): Promise<Buffer> {
    return localRaw(this.settings, await this.source(), id, index, compact, flavor);
  }

  /** The roots found in the home, as the local `list` names them: no application to load. */
  async flavors(): Promise<string[]> {
    return [...new Set((await this.source()).roots.map((r) => r.flavor))].sort();
  }

  private open(): Promise<{ run: Run; close(): Promise<void> }> {
    this.opened ??= import('./local-app').then((m) => m.openLocalApp());
    return this.opened;
  }

  async close(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}

/**
 * For the CI commands (`check`, `wait`): a gate that passed on the shipped example because the
 * run's home was not where the job looked would be a silent false pass, so they refuse it.
 */
export async function requireConfiguredHome(source: Source, command: string): Promise<void> {
  if ((await source.home()) !== 'example') return;
  throw new CliError(
    Exit.USAGE,
    `${command} reads only a configured brain home (GEMINI_HOME or BRAIN_ROOTS), never the example`,
  );
}

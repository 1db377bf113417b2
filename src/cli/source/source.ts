import { homeSettings } from '../../config/home-settings';
import { CliError, errorFromCode } from '../errors';
import type { CommonOptions } from '../options';
import type { ListQuery, ListResult } from './list-types';
import { localList } from './local-list';
import { localRaw } from './local-raw';
import { RemoteClient } from './remote';
import { remoteList } from './remote-list';
import { remoteRaw } from './remote-raw';

/**
 * Where a command's answers come from: the local brain home (GEMINI_HOME, BRAIN_ROOTS) or a
 * server (--url). Both run the same GraphQL documents; `list` has a fast local path.
 */

export type Run = <T>(document: string, variables?: Record<string, unknown>) => Promise<T>;

export interface Source {
  readonly remote: RemoteClient | null;
  run: Run;
  list(q: ListQuery): Promise<ListResult>;
  /** The masked bytes of step `index`'s line (full view unless `compact`). */
  raw(id: string, index: number, compact: boolean): Promise<Buffer>;
  close(): Promise<void>;
}

export function openSource(options: CommonOptions): Source {
  if (options.url !== undefined) {
    const client = new RemoteClient(options.url, options.key);
    return {
      remote: client,
      run: (doc, vars) => client.run(doc, vars),
      list: (q) => remoteList(client, q),
      raw: (id, index, compact) => remoteRaw(client, id, index, compact),
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

  run: Run = async (document, variables) => {
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

  list(q: ListQuery): Promise<ListResult> {
    return localList(homeSettings(), q);
  }

  raw(id: string, index: number, compact: boolean): Promise<Buffer> {
    return localRaw(homeSettings(), id, index, compact);
  }

  private open(): Promise<{ run: Run; close(): Promise<void> }> {
    this.opened ??= import('./local-app').then((m) => m.openLocalApp());
    return this.opened;
  }

  async close(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}

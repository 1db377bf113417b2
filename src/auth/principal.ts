import type { Request } from 'express';
import type { ApiKey } from './api-keys';
import type { BrainRoot } from '../brain/types';

/** Who is asking, and which brain roots they may see. */
export class Principal {
  constructor(
    readonly name: string,
    /** Flavors this caller may read; null means every root. */
    readonly flavors: ReadonlySet<string> | null,
    /** Sources (push key names) this caller may read; null means every root. */
    readonly sources: ReadonlySet<string> | null = null,
    /** A push key: it writes its own source through the ingest routes and reads nothing. */
    readonly push = false,
  ) {}

  static readonly anonymous = new Principal('anonymous', null);
  /** Sees nothing: what a request that somehow skipped authentication gets. */
  static readonly nobody = new Principal('nobody', new Set());

  static of(key: ApiKey): Principal {
    return new Principal(key.name, key.flavors, key.sources, key.push);
  }

  /** A mounted root has no source, so a source-scoped caller never sees it. */
  mayRead(root: BrainRoot): boolean {
    if (this.push) return false;
    if (this.flavors !== null && !this.flavors.has(root.flavor)) return false;
    return this.sources === null || (root.source !== undefined && this.sources.has(root.source));
  }

  /** Sees only some roots (listings must be filtered). */
  get scoped(): boolean {
    return this.push || this.flavors !== null || this.sources !== null;
  }

  /** A stable key for caches of filtered listings. */
  get scopeKey(): string {
    if (this.push) return '!push';
    const part = (set: ReadonlySet<string> | null) =>
      set === null ? '*' : [...set].sort().join(',');
    return this.sources === null
      ? part(this.flavors)
      : `${part(this.flavors)}|${part(this.sources)}`;
  }
}

export type AuthedRequest = Request & { principal?: Principal };

/**
 * The principal the auth middleware attached. Every request past it has one; should one ever
 * arrive without, it sees nothing rather than everything.
 */
export function principalOf(req: Request): Principal {
  return (req as AuthedRequest).principal ?? Principal.nobody;
}

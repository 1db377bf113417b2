import type { Request } from 'express';
import type { BrainRoot } from '../brain/types';

/** Who is asking, and which brain roots they may see. */
export class Principal {
  constructor(
    readonly name: string,
    /** Flavors this caller may read; null means every root. */
    readonly flavors: ReadonlySet<string> | null,
  ) {}

  static readonly anonymous = new Principal('anonymous', null);
  /** Sees nothing: what a request that somehow skipped authentication gets. */
  static readonly nobody = new Principal('nobody', new Set());

  mayRead(root: BrainRoot): boolean {
    return this.flavors === null || this.flavors.has(root.flavor);
  }

  /** A stable key for caches of filtered listings. */
  get scopeKey(): string {
    return this.flavors === null ? '*' : [...this.flavors].sort().join(',');
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

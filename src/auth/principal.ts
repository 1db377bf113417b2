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

  mayRead(root: BrainRoot): boolean {
    return this.flavors === null || this.flavors.has(root.flavor);
  }

  /** A stable key for caches of filtered listings. */
  get scopeKey(): string {
    return this.flavors === null ? '*' : [...this.flavors].sort().join(',');
  }
}

export type AuthedRequest = Request & { principal?: Principal };

/** The principal the auth middleware attached (every request past it has one). */
export function principalOf(req: Request): Principal {
  return (req as AuthedRequest).principal ?? Principal.anonymous;
}

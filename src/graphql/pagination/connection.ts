import { Type } from '@nestjs/common';
import { Field, Int, ObjectType } from '@nestjs/graphql';
import { badInput } from '../errors';
import { Policy } from '../field-policy';

@ObjectType({ description: 'Where a page ends and whether more follow.' })
export class PageInfo {
  @Field({ description: 'True when more items follow this page.' })
  hasNextPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the last edge; pass it as `after`.',
  })
  @Policy({ redaction: 'none' }) // generated here, never brain text
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * Builds the `<Name>Edge` and `<Name>Connection` object types for a node type. `opts`: a
 * connection named otherwise (the contract's `SearchConnection` of `SearchHitEdge`s), and the
 * noun the descriptions use (default: the name in lower case).
 */
export function Connection<T>(
  classRef: Type<T>,
  name: string,
  opts: { connection?: string; noun?: string } = {},
): Type<Connection<T>> {
  const noun = opts.noun ?? name.toLowerCase();
  @ObjectType(`${name}Edge`, { description: `One ${noun} and its cursor.` })
  class EdgeType {
    @Field({ description: 'Opaque cursor of this edge.' })
    @Policy({ redaction: 'none' })
    cursor!: string;

    @Field(() => classRef, { description: `The ${noun}.` })
    node!: T;
  }

  @ObjectType(opts.connection ?? `${name}Connection`, { description: `A page of ${noun}s.` })
  class ConnectionType {
    @Field(() => [EdgeType], { description: 'The items of this page, in order.' })
    edges!: Edge<T>[];

    @Field(() => PageInfo, { description: 'Paging state.' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Number of items matching the filter, over all pages.' })
    totalCount!: number;
  }
  return ConnectionType;
}

export function checkFirst(first: number, max: number): void {
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw badInput(`"first" must be an integer from 1 to ${max}`, { argument: 'first' });
  }
}

/**
 * Pages through `items` (already filtered and sorted). `isAfter(item)` says whether an item
 * lies after the cursor's key; items are assumed ordered so that these form a suffix.
 */
export function paginate<T, N>(
  items: readonly T[],
  first: number,
  isAfter: ((item: T) => boolean) | null,
  cursorOf: (item: T) => string,
  nodeOf: (item: T) => N,
): Connection<N> {
  let start = 0;
  if (isAfter) {
    // Binary search for the first item after the cursor: the list is sorted by the key.
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAfter(items[mid])) hi = mid;
      else lo = mid + 1;
    }
    start = lo;
  }
  const page = items.slice(start, start + first);
  const edges = page.map((item) => ({ cursor: cursorOf(item), node: nodeOf(item) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: start + first < items.length,
      endCursor: edges.length ? edges[edges.length - 1].cursor : null,
    },
    totalCount: items.length,
  };
}

import { ArgsType, Field, InputType, Int } from '@nestjs/graphql';
import { SearchField, SearchOrder } from '../graphql/enums';
import {
  SESSION_SCAN_COST,
  type Args,
  type FieldPolicy,
  type HomeSize,
} from '../graphql/field-policy';
import { SessionFilter, summaryScanCost } from '../sessions/sessions.args';

/** The largest `first` of this connection. */
export const MAX_SEARCH_PAGE = 100;

@InputType({ description: 'Restricts a search; all given conditions must hold.' })
export class SearchFilter {
  @Field(() => SessionFilter, {
    nullable: true,
    description: 'Which sessions, as in sessions(filter:).',
  })
  sessions?: SessionFilter | null;

  @Field(() => String, {
    nullable: true,
    description:
      'One session: id or unique prefix of at least 4 characters (errors as for session(id:)); an unknown id gives no hits.',
  })
  session?: string | null;

  @Field(() => [SearchField], {
    nullable: true,
    description: 'Only texts of these fields; absent or empty: every field.',
  })
  fields?: SearchField[] | null;
}

@ArgsType()
export class SearchArgs {
  @Field({
    description:
      'Terms separated by whitespace, a "quoted phrase" being one term; each term of 3 or more characters; at most 16 terms and 512 characters (UTF-16 code units). A hit holds every term, case-insensitively, in one text.',
  })
  query!: string;

  @Field(() => Int, { nullable: true, defaultValue: 20, description: 'Page size, 1 to 100.' })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts.' })
  after?: string | null;

  @Field(() => SearchFilter, { nullable: true, description: 'Which texts to search.' })
  filter?: SearchFilter | null;

  @Field(() => SearchOrder, {
    nullable: true,
    defaultValue: SearchOrder.RELEVANCE,
    description: 'Sort order.',
  })
  order?: SearchOrder | null;
}

/** Points for asking the index about every session the caller sees. */
export const indexScanCost = (home: HomeSize): number => SESSION_SCAN_COST * home.visibleSessions;

/**
 * search asks the index about every visible session (and may first read their summaries for
 * `filter.sessions`): its cost grows with the home, like a listing's text filter.
 */
export const SEARCH_SCAN: FieldPolicy = {
  readsHome: () => true,
  maxFirst: MAX_SEARCH_PAGE,
  cost: (args: Args, home: HomeSize) =>
    indexScanCost(home) +
    summaryScanCost((args.filter as SearchFilter | null | undefined)?.sessions, home),
};

/** indexStatus: the index's progress over every visible session. */
export const STATUS_SCAN: FieldPolicy = {
  readsHome: () => true,
  cost: (_args: Args, home: HomeSize) => indexScanCost(home),
};

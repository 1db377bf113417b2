import { ArgsType, Field, GraphQLISODateTime, InputType, Int } from '@nestjs/graphql';
import { Environment, SessionOrder } from '../graphql/enums';
import {
  SESSION_SCAN_COST,
  type Args,
  type FieldPolicy,
  type HomeSize,
} from '../graphql/field-policy';
import { HOURS_PER_WEEK } from './hour-of-week';
import { MAX_TOOL_NAME_LENGTH, MAX_TOOL_NAMES, readsSummaries } from './session-filter';

/** The largest `first` of this connection. */
export const MAX_SESSIONS_PAGE = 100;

@InputType({ description: 'Restricts a session listing; all given conditions must hold.' })
export class SessionFilter {
  @Field(() => [Environment], { nullable: true, description: 'Any of these environments.' })
  environment?: Environment[] | null;

  @Field(() => [String], { nullable: true, description: 'Any of these root flavors.' })
  flavor?: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Any of these sources (push key names); mounted roots have none.',
  })
  source?: string[] | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'createdAt at or after (inclusive).',
  })
  createdAfter?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'createdAt before (exclusive).' })
  createdBefore?: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of userRequest.',
  })
  query?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'true: errorCount > 0; false: errorCount = 0.',
  })
  hasErrors?: boolean | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Any of these exact model names (a session without a model matches none).',
  })
  model?: string[] | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'updatedAt at or after (inclusive).',
  })
  updatedAfter?: Date | null;

  @Field(() => [String], {
    nullable: true,
    description: `Sessions that called at least one of these tools (ToolCall.name, case-insensitive): 1 to ${MAX_TOOL_NAMES} names of 1 to ${MAX_TOOL_NAME_LENGTH} characters. Answered from the home index: while it is BUILDING, a session it has not read yet matches none.`,
  })
  tool?: string[] | null;

  @Field(() => [Int], {
    nullable: true,
    description: `Sessions with a step in any of these hours of the week, UTC, as the dashboard's heatmap: 0 is Monday 00:00-00:59, 24 Tuesday 00:00, 167 Sunday 23:00 (1 to ${HOURS_PER_WEEK} integers from 0 to 167). A step without a createdAt counts at the session's, as in stats' timeline. Answered from the home index: while it is BUILDING, a session it has not read yet matches none.`,
  })
  hourOfWeek?: number[] | null;
}

@ArgsType()
export class SessionsArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: 'Page size, 1 to 100.' })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts.' })
  after?: string | null;

  @Field(() => SessionFilter, { nullable: true, description: 'Which sessions to list.' })
  filter?: SessionFilter | null;

  @Field(() => SessionOrder, {
    nullable: true,
    defaultValue: SessionOrder.NEWEST_FIRST,
    description: 'Sort order.',
  })
  order?: SessionOrder | null;
}

/**
 * Points for selecting sessions with `filter`: a filter on summaries (query, hasErrors, model,
 * updatedAfter) reads the summary of every session the caller can see before paging, whatever
 * `first` is: a point per such session.
 */
export function summaryScanCost(filter: unknown, home: HomeSize): number {
  return readsSummaries(filter as SessionFilter | null | undefined)
    ? SESSION_SCAN_COST * home.visibleSessions
    : 0;
}

/** The policy of a field that takes a SessionFilter as `filter`. */
export const SUMMARY_FILTER_SCAN: FieldPolicy = {
  readsHome: (args: Args) => readsSummaries(args.filter as SessionFilter | null | undefined),
  cost: (args: Args, home: HomeSize) => summaryScanCost(args.filter, home),
};

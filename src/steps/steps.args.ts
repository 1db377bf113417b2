import { ArgsType, Field, InputType, Int } from '@nestjs/graphql';
import { StepSource, StepStatus } from '../graphql/enums';

/** The largest `first` of this connection. */
export const MAX_STEPS_PAGE = 500;

@InputType({ description: 'Restricts a step listing; all given conditions must hold.' })
export class StepFilter {
  @Field(() => [String], { nullable: true, description: 'Any of these record types.' })
  types?: string[] | null;

  @Field(() => [StepSource], { nullable: true, description: 'Any of these sources.' })
  sources?: StepSource[] | null;

  @Field(() => [StepStatus], { nullable: true, description: 'Any of these statuses.' })
  statuses?: StepStatus[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Steps with a tool call of this name (case-insensitive).',
  })
  toolName?: string | null;
}

@ArgsType()
export class StepsArgs {
  @Field(() => Int, { nullable: true, defaultValue: 50, description: 'Page size, 1 to 500.' })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts.' })
  after?: string | null;

  @Field(() => StepFilter, { nullable: true, description: 'Which steps to list.' })
  filter?: StepFilter | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'The page starts at the first step at or after this position (Step.position, 0-based place among the records): the page holding a step, without paging to it. Not with `after`.',
  })
  fromPosition?: number | null;
}

@ArgsType()
export class OutputTextArgs {
  @Field(() => Int, { nullable: true, defaultValue: 0, description: 'First byte to read (>= 0).' })
  offset?: number | null;

  @Field(() => Int, {
    nullable: true,
    defaultValue: 1048576,
    description: 'Bytes to read (0 to 16777216).',
  })
  length?: number | null;
}

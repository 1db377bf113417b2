import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum TimeBucket {
  HOUR = 'HOUR',
  DAY = 'DAY',
  WEEK = 'WEEK',
  MONTH = 'MONTH',
}
registerEnumType(TimeBucket, {
  name: 'TimeBucket',
  description: 'UTC buckets of a timeline; a WEEK starts on Monday.',
});

@ObjectType({ description: 'How many sessions or steps have a key.' })
export class Count {
  @Field(() => String, {
    nullable: true,
    description: 'The key; null for sessions without a model (byModel).',
  })
  key!: string | null;

  @Field(() => Int)
  count!: number;
}

@ObjectType({ description: 'Calls of one tool, and those whose result is an error.' })
export class ToolStats {
  @Field()
  name!: string;

  @Field(() => Int)
  calls!: number;

  @Field(() => Int, { description: 'Calls whose result has status ERROR or type ERROR_MESSAGE.' })
  errors!: number;
}

@ObjectType({
  description:
    "One bucket: sessions by their createdAt; steps, tool calls and errors by the step's createdAt.",
})
export class TimeBucketStats {
  @Field(() => GraphQLISODateTime, { description: 'Where the bucket starts (UTC).' })
  start!: Date;

  @Field(() => Int)
  sessions!: number;

  @Field(() => Int)
  steps!: number;

  @Field(() => Int)
  toolCalls!: number;

  @Field(() => Int)
  errors!: number;

  @Field(() => Int, {
    description:
      'Commands with a non-null exitCode other than 0, by the createdAt of the step holding the call.',
  })
  failedCommands!: number;
}

@ObjectType({
  description:
    'Numbers over the visible sessions that match the filter, from the home index (while it builds, over what it holds so far).',
})
export class Stats {
  @Field(() => Int, { description: 'Matching sessions.' })
  sessions!: number;

  @Field(() => Int, { description: 'Sum of their stepCount.' })
  steps!: number;

  @Field(() => Int, { description: 'Sum of their toolCallCount.' })
  toolCalls!: number;

  @Field(() => Int, { description: 'Sum of their errorCount.' })
  errors!: number;

  @Field(() => Int, { description: 'Their Session.commands.' })
  commands!: number;

  @Field(() => Int, { description: 'Commands with a non-null exitCode other than 0.' })
  failedCommands!: number;

  @Field(() => Int, { description: 'Their Session.fileChanges.' })
  fileChanges!: number;

  @Field(() => Int, { description: 'Sum of linesAdded over their file changes.' })
  linesAdded!: number;

  @Field(() => Int, { description: 'Sum of linesRemoved over their file changes.' })
  linesRemoved!: number;

  @Field(() => [Count], { description: 'Sessions per environment.' })
  byEnvironment!: Count[];

  @Field(() => [Count], { description: 'Sessions per flavor.' })
  byFlavor!: Count[];

  @Field(() => [Count], { description: 'Sessions per model (key null: no model).' })
  byModel!: Count[];

  @Field(() => [Count], { description: 'Steps per type.' })
  byStepType!: Count[];

  @Field(() => [Count], { description: 'Steps per status.' })
  byStatus!: Count[];

  @Field(() => [ToolStats], { description: 'Tool calls per tool name, most called first.' })
  byTool!: ToolStats[];
}

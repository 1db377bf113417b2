import { Field, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSON } from 'graphql-scalars';

@ObjectType({ description: 'One tool invocation of a step.' })
export class ToolCall {
  @Field(() => Int, { description: "0-based place among the step's tool calls." })
  position!: number;

  @Field({ description: 'Tool name, e.g. run_command.' })
  name!: string;

  @Field(() => GraphQLJSON, {
    description: 'Arguments; compact values JSON-decoded when they decode, raw when truncated.',
  })
  args!: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'The toolAction argument, if any.' })
  toolAction!: string | null;

  @Field(() => String, { nullable: true, description: 'The toolSummary argument, if any.' })
  toolSummary!: string | null;
}

import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import { StepSource, StepStatus } from '../graphql/enums';
import { Connection } from '../graphql/pagination/connection';
import { ToolCall } from '../tool-calls/tool-call.model';
import { FULL_READ, Policy, READ_COST } from '../graphql/field-policy';
import { outputTextBytes, outputTextCost } from './output-text.policy';

@ObjectType({ description: 'Token counts recorded on a model response.' })
export class TokenUsage {
  @Field(() => Int, { nullable: true, description: 'input_tokens' })
  input!: number | null;

  @Field(() => Int, { nullable: true, description: 'output_tokens' })
  output!: number | null;

  @Field(() => Int, { nullable: true, description: 'cache_read_tokens' })
  cacheRead!: number | null;
}

@ObjectType({ description: "A step's output file under .system_generated/steps/<index>/." })
export class StepOutput {
  @Field({ description: '"output.txt" or "content.md".' })
  file!: string;

  @Field(() => Int, { description: 'Size in bytes.' })
  size!: number;

  // Its service masks the slice on raw byte offsets.
  @Policy({ cost: outputTextCost, minBytes: outputTextBytes, redaction: 'service' })
  @Field({
    description: 'A byte range of the file, decoded as UTF-8 (cut characters become U+FFFD).',
  })
  text!: string;

  @Policy({ cost: READ_COST }) // reads the step's full content
  @Field({ description: "True when the trimmed output occurs in the step's trimmed full content." })
  duplicatesContent!: boolean;
}

@ObjectType({ description: 'One transcript record of a session, in file order.' })
export class Step {
  @Field(() => Int, { description: 'step_index as recorded (gaps and duplicates kept).' })
  index!: number;

  @Field(() => Int, { description: '0-based place among the records of the view.' })
  position!: number;

  @Field(() => StepSource, { description: 'Who produced the step.' })
  source!: StepSource;

  @Field({ description: 'Record type as recorded: an open set.' })
  type!: string;

  @Field(() => StepStatus, { description: 'Lifecycle state.' })
  status!: StepStatus;

  @Field(() => GraphQLISODateTime, { description: "created_at, else the session's createdAt." })
  createdAt!: Date;

  @Policy({ cost: FULL_READ })
  @Field(() => String, {
    nullable: true,
    description: 'Body text; full: true reads the untruncated value.',
  })
  content!: string | null;

  @Policy({ cost: FULL_READ })
  @Field(() => String, {
    nullable: true,
    description: 'Model reasoning; full: true reads the untruncated value.',
  })
  thinking!: string | null;

  @Field(() => String, { nullable: true, description: "The record's error, if any." })
  error!: string | null;

  @Policy({ cost: FULL_READ, listSize: 5 })
  @Field(() => [ToolCall], {
    description: 'Tool calls; full: true reads the untruncated arguments.',
  })
  toolCalls!: ToolCall[];

  @Field(() => [String], { description: 'Truncated fields among content, thinking, tool_calls.' })
  truncatedFields!: string[];

  @Field(() => String, { nullable: true, description: 'The request text of a USER_INPUT step.' })
  userRequest!: string | null;

  @Policy({ cost: 2 }) // looks for the output files
  @Field(() => StepOutput, { nullable: true, description: "The step's output file, if any." })
  output!: StepOutput | null;

  @Field(() => TokenUsage, { nullable: true, description: 'Token counts, when recorded.' })
  tokens!: TokenUsage | null;
}

export const StepConnection = Connection(Step, 'Step');

import { Field, Int, ObjectType } from '@nestjs/graphql';
import { FileChangeKind, StepStatus } from '../graphql/enums';
import { Policy } from '../graphql/field-policy';
import { Step } from '../steps/step.model';

@ObjectType({
  description: 'One write_to_file, replace_file_content or multi_replace_file_content call.',
})
export class FileChange {
  @Field(() => Step, { description: 'The step holding the call.' })
  step!: Step;

  @Field(() => Int, { description: "The call's place among the step's tool calls." })
  toolCallPosition!: number;

  @Field({ description: "The tool's name." })
  tool!: string;

  @Field({ description: 'TargetFile as given.' })
  path!: string;

  @Field(() => FileChangeKind, { description: 'CREATE, OVERWRITE or EDIT.' })
  kind!: FileChangeKind;

  @Field(() => String, { nullable: true, description: 'The Description argument.' })
  description!: string | null;

  @Field({
    description:
      'False when an argument it needs was cut and no full record has it, or a chunk was too large to diff minimally (shown as a rewrite).',
  })
  complete!: boolean;

  @Field(() => Int, { description: 'Lines added (a minimal line diff per chunk).' })
  linesAdded!: number;

  @Field(() => Int, { description: 'Lines removed (a minimal line diff per chunk).' })
  linesRemoved!: number;

  @Field({
    description: 'A unified diff: --- / +++ headers naming the path, one @@ hunk per chunk.',
  })
  // Each side is also masked as the file it shows (a key's lines follow the removed ones).
  @Policy({ redaction: 'diff' })
  diff!: string;

  @Field(() => Step, { nullable: true, description: "The step recording the call's outcome." })
  result!: Step | null;

  @Field(() => StepStatus, {
    nullable: true,
    description: "The result's status; null without one.",
  })
  status!: StepStatus | null;
}

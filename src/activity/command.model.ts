import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Step } from '../steps/step.model';

@ObjectType({ description: 'One run_command call and what its result says.' })
export class Command {
  @Field(() => Step, { description: 'The step holding the call.' })
  step!: Step;

  @Field(() => Int, { description: "The call's place among the step's tool calls." })
  toolCallPosition!: number;

  @Field({ description: 'The CommandLine argument (full tier).' })
  commandLine!: string;

  @Field(() => String, { nullable: true, description: 'The Cwd argument, or null.' })
  cwd!: string | null;

  @Field(() => Step, { nullable: true, description: "The step recording the call's outcome." })
  result!: Step | null;

  @Field({ description: 'The result says the command went on as a background task.' })
  background!: boolean;

  @Field(() => Int, {
    nullable: true,
    description: '0 "completed successfully", N "failed with exit code: N", else null.',
  })
  exitCode!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'The result\'s text after its "Output:" line, or null.',
  })
  output!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Session-relative path of the background task's log, when that file exists.",
  })
  taskLog!: string | null;
}

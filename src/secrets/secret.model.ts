import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { SearchField } from '../graphql/enums';
import { Connection } from '../graphql/pagination/connection';
import { Session } from '../sessions/session.model';
import { Step } from '../steps/step.model';

@ObjectType({
  description:
    'Secrets the redactor masks (or, with REDACT=off, would mask) of one kind in one text of a step or artifact.',
})
export class SecretFinding {
  @Field({
    description: 'The [REDACTED:<kind>] kind, lowercase with dashes, e.g. jwt, private-key.',
  })
  kind!: string;

  @Field(() => SearchField, { description: 'Which text of the step (or the artifact).' })
  field!: SearchField;

  @Field(() => Step, { nullable: true, description: 'The step; null for ARTIFACT findings.' })
  step?: unknown;

  @Field(() => String, {
    nullable: true,
    description: "The artifact's file name for ARTIFACT findings, else null.",
  })
  artifact!: string | null;

  @Field(() => Int, { description: 'Secrets of this kind in that text.' })
  count!: number;
}

@ObjectType({ description: 'A session with secrets in its texts, and what they are.' })
export class SecretExposure {
  @Field(() => Session, { description: 'The session.' })
  session!: ListedSession;

  @Field(() => Int, { description: 'Sum of the counts of its findings.' })
  count!: number;

  @Field(() => [String], { description: 'The kinds found, ascending.' })
  kinds!: string[];

  @Field(() => [SecretFinding], {
    description: 'Step findings by position then field, then artifact findings by name.',
  })
  findings!: SecretFinding[];
}

export const SecretExposureConnection = Connection(SecretExposure, 'SecretExposure', {
  noun: 'secret exposure',
});

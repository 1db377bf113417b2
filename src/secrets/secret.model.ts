import { Field, Int, ObjectType } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { SearchField } from '../graphql/enums';
import { Connection } from '../graphql/pagination/connection';
import { Session } from '../sessions/session.model';
import { Step } from '../steps/step.model';

@ObjectType({
  description:
    'Secrets the redactor masks (or, with REDACT=off, would mask) of one kind in one text of a step, an artifact, or another file of the session.',
})
export class SecretFinding {
  @Field({
    description: 'The [REDACTED:<kind>] kind, lowercase with dashes, e.g. jwt, private-key.',
  })
  kind!: string;

  @Field(() => SearchField, {
    description: 'Which text of the step; ARTIFACT for an artifact or another file of the session.',
  })
  field!: SearchField;

  @Field(() => Step, { nullable: true, description: 'The step; null for ARTIFACT findings.' })
  step?: unknown;

  @Field(() => String, {
    nullable: true,
    description:
      "For ARTIFACT findings the file's path in the session folder: an artifact's name (plan.md), or another file the file route serves (an upload, a scratch file, a task log, an artifact's sidecar or earlier version, media); else null.",
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
    description:
      'Step findings by position then field, then those on lines that are no record, then ARTIFACT findings by path.',
  })
  findings!: SecretFinding[];
}

export const SecretExposureConnection = Connection(SecretExposure, 'SecretExposure', {
  noun: 'secret exposure',
});

import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { ArtifactKind } from '../graphql/enums';
import { Policy, READ_COST } from '../graphql/field-policy';

/** A document is at least as large as its file (decoding and JSON escaping only add). */
function fileBytes(source: unknown): number {
  const size = (source as { info?: { size?: unknown } } | null)?.info?.size;
  return typeof size === 'number' && size > 0 ? size : 0;
}

@ObjectType({ description: 'An earlier snapshot of an artifact (<name>.resolved[.N]).' })
export class ArtifactVersion {
  @Field({ description: 'File name, e.g. "implementation_plan.md.resolved.2".' })
  name!: string;

  @Field(() => Int, { description: 'Size in bytes.' })
  size!: number;

  @Field(() => GraphQLISODateTime, { description: "The file's mtime." })
  modifiedAt!: Date;

  @Policy({ cost: READ_COST, minBytes: fileBytes })
  @Field({ description: "The snapshot's text." })
  content!: string;
}

@ObjectType({
  description:
    'A markdown document at the root of the session (plan, task list, walkthrough, ...).',
})
export class Artifact {
  @Field({ description: 'File name in the session directory, e.g. "implementation_plan.md".' })
  name!: string;

  @Field(() => ArtifactKind, { description: 'From the sidecar artifactType, else from the name.' })
  kind!: ArtifactKind;

  @Field(() => String, { nullable: true, description: 'The sidecar summary.' })
  summary!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The sidecar updatedAt exactly as written (nanoseconds kept).',
  })
  updatedAt!: string | null;

  @Field(() => Int, { description: 'Size in bytes.' })
  size!: number;

  @Field(() => GraphQLISODateTime, { description: "The file's mtime." })
  modifiedAt!: Date;

  @Policy({ cost: READ_COST, minBytes: fileBytes })
  @Field({ description: "The document's text." })
  content!: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The sidecar object, or null.' })
  metadata!: Record<string, unknown> | null;

  @Policy({ listSize: 10 })
  @Field(() => [ArtifactVersion], {
    description: 'Snapshots: .resolved.N ascending, then .resolved.',
  })
  versions!: ArtifactVersion[];
}

import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { Environment, SessionFileKind } from '../graphql/enums';
import { Connection } from '../graphql/pagination/connection';

@ObjectType({ description: 'A directory that holds session directories.' })
export class BrainRoot {
  @Field({ description: 'The root as configured or discovered.' })
  path!: string;

  @Field({ description: 'Name of the root\'s parent directory, e.g. "antigravity-ide".' })
  flavor!: string;

  @Field(() => Environment, { description: 'The product that writes this flavor.' })
  environment!: Environment;

  @Field(() => Int, { description: 'Number of sessions listed under this root.' })
  sessionCount!: number;

  @Field({ description: 'True when this is the example brain home shipped with brainql.' })
  isExample!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The push key name its sessions were received from; null for mounted roots.',
  })
  source!: string | null;
}

@ObjectType({ description: 'One Antigravity agent session (a directory under a brain root).' })
export class Session {
  @Field(() => ID, { description: 'The directory name.' })
  id!: string;

  @Field(() => BrainRoot, { description: 'The root the session was found in.' })
  root!: BrainRoot;

  @Field(() => String, {
    nullable: true,
    description: 'The push key name it came from (brainql push); null for mounted roots.',
  })
  source!: string | null;

  @Field(() => GraphQLISODateTime, {
    description:
      'created_at of the first record with a valid one, else the oldest modification time of its transcript files and folder (never later than updatedAt).',
  })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, {
    description: 'Latest valid created_at of any record, else the newest transcript file mtime.',
  })
  updatedAt!: Date;

  @Field(() => String, { nullable: true, description: 'The first USER_INPUT request text.' })
  userRequest!: string | null;

  @Field(() => String, { nullable: true, description: 'The last model selected in a USER_INPUT.' })
  model!: string | null;

  @Field(() => String, { nullable: true, description: "The user's local time at the first input." })
  localTime!: string | null;

  @Field(() => [String], { description: '@[...] file mentions of all USER_INPUT steps, in order.' })
  mentionedFiles!: string[];

  @Field(() => String, { nullable: true, description: 'The first Cwd argument of any tool call.' })
  workspaceRoot!: string | null;

  @Field(() => Int, { description: 'Records in the compact view.' })
  stepCount!: number;

  @Field(() => Int, { description: 'Tool calls of all records.' })
  toolCallCount!: number;

  @Field(() => Int, { description: 'Records with status ERROR or type ERROR_MESSAGE.' })
  errorCount!: number;
}

@ObjectType({ description: 'A file of the session beside its transcripts and artifacts.' })
export class SessionFile {
  @Field({ description: '"/"-separated path relative to the session directory.' })
  path!: string;

  @Field(() => SessionFileKind, { description: 'What the file is, by where it lives.' })
  kind!: SessionFileKind;

  @Field(() => Int, { description: 'Size in bytes.' })
  size!: number;

  @Field(() => GraphQLISODateTime, { description: "The file's mtime." })
  modifiedAt!: Date;
}

@ObjectType({ description: "Something wrong in a session's files; reading went on past it." })
export class Problem {
  @Field({
    description:
      'MALFORMED_LINE, PARTIAL_LAST_LINE, DUPLICATE_STEP_INDEX, MISSING_FULL_RECORD, UNREADABLE_FILE, UNSAFE_PATH, LINE_TOO_LONG, TOO_MANY_PROBLEMS (codes are only ever added)',
  })
  code!: string;

  @Field({ description: 'What is wrong, for people.' })
  message!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The file, relative to the session directory.',
  })
  file!: string | null;

  @Field(() => Int, { nullable: true, description: '1-based line number within the view.' })
  line!: number | null;
}

export const SessionConnection = Connection(Session, 'Session');

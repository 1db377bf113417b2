import { Field, Float, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { IndexState, SearchField } from '../graphql/enums';
import { Connection } from '../graphql/pagination/connection';
import { Session } from '../sessions/session.model';
import { Step } from '../steps/step.model';

@ObjectType({ description: 'A stretch of a text, in UTF-16 code units (as JavaScript counts).' })
export class TextRange {
  @Field(() => Int, { description: '0-based offset of the first code unit.' })
  start!: number;

  @Field(() => Int, { description: 'Code units in the range.' })
  length!: number;
}

@ObjectType({
  description:
    'A text holding every term: one per (session, step position, field), or per (session, artifact).',
})
export class SearchHit {
  @Field(() => Session, { description: 'The session the text belongs to.' })
  session!: ListedSession;

  @Field(() => SearchField, { description: 'Which text of the step (or the artifact) matched.' })
  field!: SearchField;

  @Field(() => Step, { nullable: true, description: 'The step; null for ARTIFACT hits.' })
  step?: unknown;

  @Field(() => String, {
    nullable: true,
    description: "The artifact's file name for ARTIFACT hits, else null.",
  })
  artifact!: string | null;

  @Field({
    description:
      'At most 300 UTF-16 code units of the text around the first occurrence of the first term.',
  })
  snippet!: string;

  @Field(() => [TextRange], { description: 'Where the terms occur in snippet.' })
  highlights!: TextRange[];

  @Field(() => Int, {
    description: 'Non-overlapping occurrences of the first term in the whole text.',
  })
  matchCount!: number;

  @Field(() => Float, { description: 'Relevance; higher is better.' })
  score!: number;
}

export const SearchConnection = Connection(SearchHit, 'SearchHit', {
  connection: 'SearchConnection',
  noun: 'search hit',
});

@ObjectType({ description: 'How far the home index has got with the sessions the caller sees.' })
export class IndexStatus {
  @Field(() => IndexState, {
    description: 'READY when every visible session is indexed, shadowed copies included.',
  })
  state!: IndexState;

  @Field(() => Int, {
    description: 'Of sessionsTotal, those whose current files are fully indexed.',
  })
  sessionsIndexed!: number;

  @Field(() => Int, {
    description:
      'Visible sessions, with each shadowed copy in a root the caller may read (a search naming its flavor reads it), as BrainRoot.sessionCount counts them.',
  })
  sessionsTotal!: number;

  @Field(() => Float, { description: 'Transcript bytes read into the index.' })
  bytesIndexed!: number;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the index last wrote a change; null before its first.',
  })
  updatedAt!: Date | null;
}

import { Field, GraphQLISODateTime, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { Session } from '../sessions/session.model';

export enum SessionEventType {
  ADDED = 'ADDED',
  UPDATED = 'UPDATED',
  REMOVED = 'REMOVED',
}
registerEnumType(SessionEventType, {
  name: 'SessionEventType',
  description: 'What happened to a session.',
  valuesMap: {
    ADDED: { description: 'The session became visible.' },
    UPDATED: { description: 'Its compact view grew (at most once a second per session).' },
    REMOVED: { description: 'The session went away.' },
  },
});

@ObjectType({ description: 'A change to a session, as sessionEvents sends it.' })
export class SessionEvent {
  @Field(() => SessionEventType, { description: 'What happened.' })
  type!: SessionEventType;

  @Field(() => ID, { description: 'The session id.' })
  sessionId!: string;

  @Field(() => Session, {
    nullable: true,
    description: 'The session as it is now; null once REMOVED.',
  })
  session!: ListedSession | null;

  @Field(() => GraphQLISODateTime, { description: 'When the change was noticed.' })
  at!: Date;
}

/** What the sessionEvents source yields (Session fields resolve on the ListedSession). */
export interface SessionEventValue {
  type: SessionEventType;
  sessionId: string;
  session: ListedSession | null;
  at: Date;
}

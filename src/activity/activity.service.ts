import { Injectable } from '@nestjs/common';
import type { CommandInfo, FileChangeInfo } from '../brain/activity/types';
import type { ListedSession } from '../brain/catalog';
import type { StepRecord } from '../brain/types';
import type { Loaders } from '../graphql/loaders';
import type { StepParent } from '../steps/steps.service';

/** What Command and FileChange fields receive: the store's facts, steps tied to their session. */
export type CommandParent = Omit<CommandInfo, 'step' | 'result'> & {
  step: StepParent;
  result: StepParent | null;
};
export type FileChangeParent = Omit<FileChangeInfo, 'step' | 'result'> & {
  step: StepParent;
  result: StepParent | null;
};

/** Sessions' activity through the per-request loaders (one batched store call per kind). */
@Injectable()
export class ActivityService {
  async commands(session: ListedSession, loaders: Loaders): Promise<CommandParent[]> {
    const list = await loaders.commands.load(session.entry);
    return list.map((c) => ({ ...c, ...steps(session, c.step, c.result) }));
  }

  async fileChanges(session: ListedSession, loaders: Loaders): Promise<FileChangeParent[]> {
    const list = await loaders.fileChanges.load(session.entry);
    return list.map((c) => ({ ...c, ...steps(session, c.step, c.result) }));
  }
}

function steps(session: ListedSession, step: StepRecord, result: StepRecord | null) {
  return {
    step: { session, record: step },
    result: result ? { session, record: result } : null,
  };
}

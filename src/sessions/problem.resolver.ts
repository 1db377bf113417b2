import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { BrainStore } from '../brain/store';
import type { Problem as ProblemInfo } from '../brain/types';
import type { GqlContext, Loaders } from '../graphql/loaders';
import { Step } from '../steps/step.model';
import type { StepParent } from '../steps/steps.service';
import { Problem } from './session.model';

/** What Problem fields receive: the store's problem, tied to its session. */
export type ProblemParent = ProblemInfo & { session: ListedSession };

/**
 * Problem.step: the record a problem's line holds, so a reader goes from "line 10" to the
 * step. Only for lines of the view Step fields show (the compact transcript, else its chunks
 * or the full view): a line of another file, or one that holds no record (a malformed line),
 * has none.
 */
@Resolver(() => Problem)
export class ProblemResolver {
  /** The compact view's label per session, once per request (it lists the session's folder). */
  private readonly labels = new WeakMap<Loaders, Map<string, Promise<string | null>>>();

  constructor(private readonly store: BrainStore) {}

  @ResolveField(() => Step, {
    nullable: true,
    description:
      'The step recorded on `line` when `file` is the view Step fields come from; null for other files and for lines that hold no record.',
  })
  async step(@Parent() p: ProblemParent, @Context() ctx: GqlContext): Promise<StepParent | null> {
    if (p.line === null || p.file === null) return null;
    if ((await this.viewLabel(p.session, ctx.loaders)) !== p.file) return null;
    const records = await ctx.loaders.records.load(p.session.entry);
    const record = records.find((r) => r.line === p.line);
    return record ? { session: p.session, record } : null;
  }

  private viewLabel(session: ListedSession, loaders: Loaders): Promise<string | null> {
    let perSession = this.labels.get(loaders);
    if (!perSession)
      this.labels.set(loaders, (perSession = new Map<string, Promise<string | null>>()));
    const dir = session.entry.realDir;
    let label = perSession.get(dir);
    if (!label) {
      label = this.store.views(session.entry).then((v) => v.compact?.label ?? null);
      perSession.set(dir, label);
    }
    return label;
  }
}

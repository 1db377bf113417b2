import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { ListedSession } from '../brain/catalog';
import { BrainStore } from '../brain/store';
import type { Problem as ProblemInfo, StepRecord } from '../brain/types';
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
/** The view Step fields show, and its records by line: once per session and request. */
interface StepLines {
  label: string | null;
  byLine: Map<number, StepRecord>;
}

@Resolver(() => Problem)
export class ProblemResolver {
  constructor(private readonly store: BrainStore) {}

  @ResolveField(() => Step, {
    nullable: true,
    description:
      'The step recorded on `line` when `file` is the view Step fields come from; null for other files and for lines that hold no record.',
  })
  async step(@Parent() p: ProblemParent, @Context() ctx: GqlContext): Promise<StepParent | null> {
    if (p.line === null || p.file === null) return null;
    const lines = await this.stepLines(p.session, ctx.loaders);
    if (lines.label !== p.file) return null;
    const record = lines.byLine.get(p.line);
    return record ? { session: p.session, record } : null;
  }

  /** A page of problems asks for the same session's view many times: one look per request. */
  private stepLines(session: ListedSession, loaders: Loaders): Promise<StepLines> {
    const perSession = loaders.own(this, () => new Map<string, Promise<StepLines>>());
    const dir = session.entry.realDir;
    let lines = perSession.get(dir);
    if (!lines) {
      lines = this.store.views(session.entry).then(async (v) => {
        const label = v.compact?.label ?? null;
        const byLine = new Map<number, StepRecord>();
        if (label !== null) {
          for (const r of await loaders.records.load(session.entry)) byLine.set(r.line, r);
        }
        return { label, byLine };
      });
      perSession.set(dir, lines);
    }
    return lines;
  }
}

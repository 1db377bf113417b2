import {
  Args,
  Context,
  GraphQLISODateTime,
  Int,
  Parent,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { ArtifactKind } from '../graphql/enums';
import type { ArtifactInfo, ArtifactVersionInfo } from '../brain/artifacts';
import type { ListedSession } from '../brain/catalog';
import { decodeText } from '../brain/utf16';
import { nameProblem } from '../brain/safe-path';
import { BrainStore } from '../brain/store';
import type { SessionEntry } from '../brain/types';
import { badInput } from '../graphql/errors';
import type { GqlContext } from '../graphql/loaders';
import { Session } from '../sessions/session.model';
import { Artifact, ArtifactVersion } from './artifact.model';
import { Policy } from '../graphql/field-policy';
import { maybeMasked, unmaskedName } from '../redaction/masked-names';
import { Redactor } from '../redaction/redactor';

interface ArtifactParent {
  entry: SessionEntry;
  info: ArtifactInfo;
}
interface VersionParent {
  entry: SessionEntry;
  info: ArtifactVersionInfo;
}

@Resolver(() => Session)
export class SessionArtifactsResolver {
  constructor(
    private readonly store: BrainStore,
    private readonly redactor: Redactor,
  ) {}

  @ResolveField(() => [Artifact], { description: 'Root-level *.md documents, by name.' })
  @Policy({ listSize: 10 })
  async artifacts(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
  ): Promise<ArtifactParent[]> {
    const list = await ctx.loaders.artifacts.load(s.entry);
    return list.map((info) => ({ entry: s.entry, info }));
  }

  @ResolveField(() => Artifact, {
    nullable: true,
    description: 'One artifact by file name; null if absent.',
  })
  async artifact(
    @Parent() s: ListedSession,
    @Args('name', { description: 'File name, e.g. "task.md".' }) name: string,
    @Context() ctx: GqlContext,
  ): Promise<ArtifactParent | null> {
    // A name holding a secret is listed masked (REDACT=on): that name finds the one artifact
    // it masks (review 24: the console's versions of `DB_PASSWORD=V.md` found nothing).
    if (maybeMasked(name, this.redactor)) {
      const list = await ctx.loaders.artifacts.load(s.entry);
      // Listed names mask the session's values too (graphql/redaction-field fieldSessionOf).
      const values = await ctx.loaders.sessionValues(s.entry, this.redactor);
      const real = unmaskedName(
        list.map((a) => a.name),
        name,
        this.redactor,
        values,
      );
      const info = typeof real === 'string' ? list.find((a) => a.name === real) : undefined;
      if (info) return { entry: s.entry, info };
    }
    const bad = nameProblem(name, false);
    if (bad)
      throw badInput(`"name" must be a plain file name in the session directory: ${bad}`, {
        argument: 'name',
      });
    const info = await this.store.artifact(s.entry, name);
    return info ? { entry: s.entry, info } : null;
  }
}

/** The whole artifact, read once there is room for it among the large values in flight. */
async function readAll(
  store: BrainStore,
  entry: SessionEntry,
  name: string,
  size: number,
  ctx: GqlContext,
): Promise<string> {
  await ctx.loaders.admit(size);
  return decodeText(await store.readRange(entry, name, 0, size));
}

@Resolver(() => Artifact)
export class ArtifactsResolver {
  constructor(private readonly store: BrainStore) {}

  @ResolveField(() => String) name(@Parent() p: ArtifactParent): string {
    return p.info.name;
  }

  @ResolveField(() => ArtifactKind) kind(@Parent() p: ArtifactParent): string {
    return p.info.kind;
  }

  @ResolveField(() => String, { nullable: true }) summary(
    @Parent() p: ArtifactParent,
  ): string | null {
    return p.info.summary;
  }

  @ResolveField(() => String, { nullable: true }) updatedAt(
    @Parent() p: ArtifactParent,
  ): string | null {
    return p.info.updatedAt;
  }

  @ResolveField(() => Int) size(@Parent() p: ArtifactParent): number {
    return p.info.size;
  }

  @ResolveField(() => GraphQLISODateTime) modifiedAt(@Parent() p: ArtifactParent): Date {
    return p.info.modifiedAt;
  }

  @ResolveField(() => String)
  content(@Parent() p: ArtifactParent, @Context() ctx: GqlContext): Promise<string> {
    return readAll(this.store, p.entry, p.info.name, p.info.size, ctx);
  }

  @ResolveField(() => GraphQLJSON, { nullable: true }) metadata(
    @Parent() p: ArtifactParent,
  ): Record<string, unknown> | null {
    return p.info.metadata;
  }

  @ResolveField(() => [ArtifactVersion])
  versions(@Parent() p: ArtifactParent): VersionParent[] {
    return p.info.versions.map((info) => ({ entry: p.entry, info }));
  }
}

@Resolver(() => ArtifactVersion)
export class ArtifactVersionsResolver {
  constructor(private readonly store: BrainStore) {}

  @ResolveField(() => String) name(@Parent() p: VersionParent): string {
    return p.info.name;
  }

  @ResolveField(() => Int) size(@Parent() p: VersionParent): number {
    return p.info.size;
  }

  @ResolveField(() => GraphQLISODateTime) modifiedAt(@Parent() p: VersionParent): Date {
    return p.info.modifiedAt;
  }

  @ResolveField(() => String)
  content(@Parent() p: VersionParent, @Context() ctx: GqlContext): Promise<string> {
    return readAll(this.store, p.entry, p.info.name, p.info.size, ctx);
  }
}

import { promises as fsp } from 'node:fs';
import { IO_CONCURRENCY, mapLimit } from './concurrency';
import { dateOf, decodeUtf8 } from './files';
import { compareStrings, refusalProblem } from './problems';
import { nameProblem, statInside, type SafeStat } from './safe-path';
import { openInside, readRange } from './safe-read';
import { MAX_NESTING, nestsDeeperThan } from './transcript/records';
import type { ArtifactKind, Problem } from './types';

/**
 * Artifacts: root-level `*.md` files of a session, with the optional sidecar
 * `<name>.metadata.json` and the snapshots `<name>.resolved.<N>` / `<name>.resolved`.
 * Content is read by the caller through `readFileRange`.
 */

export interface ArtifactVersionInfo {
  name: string;
  size: number;
  modifiedAt: Date;
}

export interface ArtifactInfo {
  name: string;
  kind: ArtifactKind;
  summary: string | null;
  /** The sidecar's `updatedAt` exactly as written (nanoseconds kept). */
  updatedAt: string | null;
  size: number;
  modifiedAt: Date;
  metadata: Record<string, unknown> | null;
  versions: ArtifactVersionInfo[];
}

/** Sidecars are a few hundred bytes; a larger one is not read (metadata null). */
export const MAX_SIDECAR_BYTES = 1024 * 1024;

const TYPE_KINDS: Record<string, ArtifactKind> = {
  ARTIFACT_TYPE_TASK: 'TASK',
  ARTIFACT_TYPE_IMPLEMENTATION_PLAN: 'IMPLEMENTATION_PLAN',
  ARTIFACT_TYPE_WALKTHROUGH: 'WALKTHROUGH',
  ARTIFACT_TYPE_OTHER: 'OTHER',
};
const NAME_KINDS: Record<string, ArtifactKind> = {
  'task.md': 'TASK',
  'implementation_plan.md': 'IMPLEMENTATION_PLAN',
  'walkthrough.md': 'WALKTHROUGH',
};
const VERSION = /^(.+\.md)\.resolved(?:\.(\d+))?$/;

/** Sidecar `artifactType` when known, else the name rule, else OTHER. */
export function artifactKind(name: string, metadata: Record<string, unknown> | null): ArtifactKind {
  const type = metadata?.artifactType;
  if (typeof type === 'string' && Object.hasOwn(TYPE_KINDS, type)) return TYPE_KINDS[type];
  return Object.hasOwn(NAME_KINDS, name) ? NAME_KINDS[name] : 'OTHER';
}

/** What one read of the session directory tells about artifacts. */
interface RootListing {
  names: Set<string>;
  /** artifact name -> version file names, already in contract order. */
  versions: Map<string, string[]>;
}

async function readRoot(realDir: string): Promise<RootListing> {
  let names: string[];
  try {
    names = await fsp.readdir(realDir);
  } catch {
    names = [];
  }
  const found = new Map<string, { name: string; n: number }[]>();
  for (const name of names) {
    const m = VERSION.exec(name);
    if (!m) continue;
    // `.resolved` (no number) sorts after every numbered snapshot.
    const n = m[2] === undefined ? Number.POSITIVE_INFINITY : Number(m[2]);
    const list = found.get(m[1]) ?? [];
    list.push({ name, n });
    found.set(m[1], list);
  }
  const versions = new Map<string, string[]>();
  for (const [base, list] of found) {
    list.sort((a, b) => a.n - b.n || compareStrings(a.name, b.name));
    versions.set(
      base,
      list.map((v) => v.name),
    );
  }
  return { names: new Set(names), versions };
}

/** Lists the session's artifacts sorted by name, with the problems met on the way. */
export async function listArtifacts(
  realDir: string,
): Promise<{ artifacts: ArtifactInfo[]; problems: Problem[] }> {
  const listing = await readRoot(realDir);
  const problems: Problem[] = [];
  const candidates = [...listing.names].filter((n) => n.endsWith('.md')).sort(compareStrings);
  const built = await mapLimit(candidates, IO_CONCURRENCY, async (name) => {
    const checked = statInside(realDir, name);
    if (!checked.ok) {
      const p = refusalProblem(checked.refusal, checked.message, name);
      if (p) problems.push(p);
      return null;
    }
    return buildArtifact(realDir, name, checked.value, listing, problems);
  });
  const artifacts = built.filter((a): a is ArtifactInfo => a !== null);
  return {
    artifacts,
    problems: problems.sort((a, b) => compareStrings(a.file ?? '', b.file ?? '')),
  };
}

/** One artifact by exact name; null for a refused name, a non-`.md` name or an absent file. */
export async function getArtifact(
  realDir: string,
  name: string,
): Promise<{ artifact: ArtifactInfo | null; problems: Problem[] }> {
  const problems: Problem[] = [];
  if (nameProblem(name, false) !== null || !name.endsWith('.md')) {
    return { artifact: null, problems };
  }
  const checked = statInside(realDir, name);
  if (!checked.ok) {
    const p = refusalProblem(checked.refusal, checked.message, name);
    if (p) problems.push(p);
    return { artifact: null, problems };
  }
  const listing = await readRoot(realDir);
  const artifact = await buildArtifact(realDir, name, checked.value, listing, problems);
  problems.sort((a, b) => compareStrings(a.file ?? '', b.file ?? ''));
  return { artifact, problems };
}

async function buildArtifact(
  realDir: string,
  name: string,
  safe: SafeStat,
  listing: RootListing,
  problems: Problem[],
): Promise<ArtifactInfo> {
  const sidecar = `${name}.metadata.json`;
  const versions = readVersions(realDir, listing.versions.get(name) ?? [], problems);
  const metadata = listing.names.has(sidecar)
    ? await readSidecar(realDir, sidecar, problems)
    : null;
  const summary = metadata?.summary;
  const updatedAt = metadata?.updatedAt;
  return {
    name,
    kind: artifactKind(name, metadata),
    summary: typeof summary === 'string' ? summary : null,
    updatedAt: typeof updatedAt === 'string' ? updatedAt : null,
    size: safe.stats.size,
    modifiedAt: dateOf(safe.stats),
    metadata,
    versions,
  };
}

function readVersions(
  realDir: string,
  names: string[],
  problems: Problem[],
): ArtifactVersionInfo[] {
  const versions: ArtifactVersionInfo[] = [];
  for (const name of names) {
    const checked = statInside(realDir, name);
    if (checked.ok) {
      versions.push({
        name,
        size: checked.value.stats.size,
        modifiedAt: dateOf(checked.value.stats),
      });
      continue;
    }
    const p = refusalProblem(checked.refusal, checked.message, name);
    if (p) problems.push(p);
  }
  return versions;
}

/**
 * The sidecar as a JSON object, or null: absent, too large, not JSON, JSON that is not an
 * object (an array, a string), or an object nested deeper than MAX_NESTING (serving it as the
 * JSON scalar would overflow the stack). A malformed sidecar is not a Problem: the artifact
 * is still whole, only its metadata is missing.
 */
async function readSidecar(
  realDir: string,
  rel: string,
  problems: Problem[],
): Promise<Record<string, unknown> | null> {
  const opened = await openInside(realDir, rel);
  if (!opened.ok) {
    const p = refusalProblem(opened.refusal, opened.message, rel);
    if (p) problems.push(p);
    return null;
  }
  const { handle, stats } = opened.value;
  let text: string;
  try {
    if (stats.size > MAX_SIDECAR_BYTES) return null;
    text = decodeUtf8(await readRange(handle, 0, stats.size));
  } catch {
    return null;
  } finally {
    await handle.close();
  }
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      !nestsDeeperThan(value, MAX_NESTING)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

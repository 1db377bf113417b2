import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { Summaries } from '../../src/brain/summaries';
import { put } from '../fixtures/fs-util';
import { at, pairFiles, planner, userInput } from '../fixtures/records';
import { KEYS } from '../e2e/search-home';
import { useRest } from '../rest/rest-home';
import { LOGS, M } from './echo-sessions';

/**
 * Review 25: a secret the session's transcript holds (`export DB_PASSWORD=V` in step 1) and that
 * its other texts show again without a key (the user's request `why does login with V fail? see
 * @[cfg/V.env]`, an artifact, a step's output.txt) is masked there too: a Session's summary
 * texts (served clear by the first ask of a session not yet in the home index), an artifact's
 * content and summary, and every file download (src/steps/session-values).
 */

const V = 'Sx7vB2nM5kJ8hG12';
const FILLER = 'compiling module ok\n'.repeat(250_000);
const BIG_LOG = `${FILLER}connected with ${V}\n${FILLER}`;
const ID = '5eaf0007-0000-4000-8000-000000000007';
const BASE = '2026-07-07T10:00:00Z';

const r = useRest({}, (sh) => {
  const dir = path.join(sh.home, 'antigravity-ide/brain', ID);
  const { compact, full } = pairFiles([
    userInput(0, at(BASE, 0), {
      request: `why does login with ${V} fail? see @[cfg/${V}.env]`,
      localTime: at(BASE, 0),
    }),
    planner(1, at(BASE, 1), { content: `export DB_PASSWORD=${V}` }),
  ]);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
  put(path.join(dir, '.system_generated/steps/1/output.txt'), `connected with ${V}\n`);
  // Over 8 MiB: streamed, masked window by window (src/http/send-file).
  put(path.join(dir, '.system_generated/steps/1/build.log'), BIG_LOG);
  put(path.join(dir, 'plan.md'), `# Plan\n\nUse ${V} for the db.\n`);
  put(path.join(dir, `deploy-${V}.md`), '# Deploy\n');
  put(path.join(dir, `.user_uploaded/creds-${V}.txt`), 'nothing here\n');
  put(path.join(dir, `keys-${V}.md`), '# Keys\n\nAPI_TOKEN=Kq7Xm2vL9pT4wZ8Rt\n');
  put(
    path.join(dir, 'plan.md.metadata.json'),
    JSON.stringify({
      artifactType: 'ARTIFACT_TYPE_IMPLEMENTATION_PLAN',
      summary: `uses ${V}`,
      updatedAt: '2026-07-07T10:00:05Z',
    }),
  );
});

const SUMMARY = `{ session(id: "${ID}") { userRequest mentionedFiles } }`;
const MASKED_SUMMARY = {
  userRequest: `why does login with ${M} fail? see @[cfg/${M}.env]`,
  mentionedFiles: [`cfg/${M}.env`],
};

describe("a session's own texts mask the secret values its transcript holds (review 25)", () => {
  it('Session.userRequest and mentionedFiles computed from the files (not the index): masked', async () => {
    // As for a session the home index has not stored yet: its summary is computed here.
    const kept = jest
      .spyOn(Summaries.prototype as unknown as { keptSummary: () => null }, 'keptSummary')
      .mockReturnValue(null);
    try {
      expect((await r.gql(SUMMARY)).session).toEqual(MASKED_SUMMARY);
      const list = await r.gql(`{ sessions(first: 50) { edges { node { id userRequest } } } }`);
      const node = (list.sessions as { edges: { node: { id: string } }[] }).edges.find(
        (e) => e.node.id === ID,
      );
      expect(node?.node).toEqual({ id: ID, userRequest: MASKED_SUMMARY.userRequest });
    } finally {
      kept.mockRestore();
    }
  });

  it('the home index stored them masked: answered without reading the transcript for values', async () => {
    const tiers = jest.spyOn(BrainStore.prototype, 'transcriptTiers');
    try {
      // A fresh app: nothing learned yet in this process for other reasons than this test's.
      expect((await r.gql(SUMMARY)).session).toEqual(MASKED_SUMMARY);
      expect(tiers).not.toHaveBeenCalled();
    } finally {
      tiers.mockRestore();
    }
  });

  it('an artifact: content and summary over GraphQL, and its download', async () => {
    const q = `{ session(id: "${ID}") { artifact(name: "plan.md") { content summary } } }`;
    expect((await r.gql(q)).session).toEqual({
      artifact: { content: `# Plan\n\nUse ${M} for the db.\n`, summary: `uses ${M}` },
    });
    const file = await r.get(`/api/sessions/${ID}/files/plan.md`);
    expect([file.status, file.text]).toEqual([200, `# Plan\n\nUse ${M} for the db.\n`]);
    const sidecar = await r.get(`/api/sessions/${ID}/files/plan.md.metadata.json`);
    expect(sidecar.text).toContain(`"summary":"uses ${M}"`);
  });

  it('a step output: Step.output.text and the output.txt download', async () => {
    const q = `{ session(id: "${ID}") { step(index: 1) { output { text } } } }`;
    expect((await r.gql(q)).session).toEqual({
      step: { output: { text: `connected with ${M}\n` } },
    });
    const file = await r.get(`/api/sessions/${ID}/files/.system_generated/steps/1/output.txt`);
    expect([file.status, file.text]).toEqual([200, `connected with ${M}\n`]);
  });

  it('a file over 8 MiB, streamed: the echo masked on a line no cut marks', async () => {
    const res = await r.get(`/api/sessions/${ID}/files/.system_generated/steps/1/build.log`);
    expect(res.status).toBe(200);
    expect(res.text === `${FILLER}connected with ${M}\n${FILLER}`).toBe(true);
  });

  it('the transcript downloads: the request echo BEFORE the secret, both tiers', async () => {
    for (const name of ['transcript.jsonl', 'transcript_full.jsonl']) {
      const file = await r.get(`/api/sessions/${ID}/files/${LOGS}/${name}`);
      expect(file.status).toBe(200);
      expect(file.text).not.toContain(V);
      expect(file.text).toContain(`why does login with ${M} fail?`);
    }
  });

  it('names holding a value: listed masked, found and downloaded by the masked name (review 25 L2)', async () => {
    const q = `{ session(id: "${ID}") { artifacts { name } files { path } } }`;
    const { session } = await r.gql(q);
    const names = (session as { artifacts: { name: string }[] }).artifacts.map((a) => a.name);
    expect(names).toContain(`deploy-${M}.md`);
    const paths = (session as { files: { path: string }[] }).files.map((f) => f.path);
    expect(paths).toContain(`.user_uploaded/creds-${M}.txt`);
    expect(JSON.stringify(session)).not.toContain(V);
    const one = `{ session(id: "${ID}") { artifact(name: "deploy-${M}.md") { name content } } }`;
    expect((await r.gql(one)).session).toEqual({
      artifact: { name: `deploy-${M}.md`, content: '# Deploy\n' },
    });
    for (const [p, body] of [
      [`deploy-${M}.md`, '# Deploy\n'],
      [`.user_uploaded/creds-${M}.txt`, 'nothing here\n'],
    ]) {
      const res = await r.get(
        `/api/sessions/${ID}/files/${p.split('/').map(encodeURIComponent).join('/')}`,
      );
      expect([res.status, res.text]).toEqual([200, body]);
    }
  });

  it('a search hit and a secret finding name the file masked (review 26 H1)', async () => {
    const q = `{ search(query: "Keys") { edges { node { artifact } } } session(id: "${ID}") { secrets { artifact count } } }`;
    const data = await r.gql(q);
    expect(JSON.stringify(data)).not.toContain(V);
    const hits = (data.search as { edges: { node: { artifact: string } }[] }).edges;
    expect(hits.map((e) => e.node.artifact)).toEqual([`keys-${M}.md`]);
    const found = (data.session as { secrets: { artifact: string | null }[] }).secrets;
    expect(found.filter((f) => f.artifact !== null)).toEqual([
      { artifact: `keys-${M}.md`, count: 1 },
    ]);
    for (const p of ['/api/search?q=Keys', `/api/sessions/${ID}/secrets`]) {
      const res = await r.get(p);
      expect([res.status, res.text.includes(`keys-${M}.md`), res.text.includes(V)]).toEqual([
        200,
        true,
        false,
      ]);
    }
  });

  it('a key scoped to another root: 404, nothing learned', async () => {
    const res = await r.get(`/api/sessions/${ID}/files/plan.md`, KEYS.acp);
    expect(res.status).toBe(404);
    expect((await r.gql(SUMMARY, {}, KEYS.acp)).session).toBeNull();
  });
});

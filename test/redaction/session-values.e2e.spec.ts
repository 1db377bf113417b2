import * as fs from 'node:fs';
import * as path from 'node:path';
import { chooseSource } from '../../src/config/brain-source';
import { homeSettings } from '../../src/config/home-settings';
import { localRaw } from '../../src/cli/source/local-raw';
import { BrainStore, type FullTier } from '../../src/brain/store';
import { ask, KEYS } from '../e2e/search-home';
import { useRest } from '../rest/rest-home';
import type { Data } from '../e2e/harness';
import { localEnv } from '../../src/cli/source/local-app';
import { loadConfig } from '../../src/config/config';
import { exportSession } from '../../src/export/export-session';
import { openLocal } from '../../src/operations/local';
import {
  addEchoSessions,
  CLEAR,
  clear,
  ECHO,
  LOGS,
  M,
  masked,
  STEP,
  V1,
  V2,
} from './echo-sessions';

/**
 * Review H-B: a secret found in one record (`export DB_PASSWORD=V`) and echoed in the next or
 * the one before (`later: connecting with V`, found by nothing) is masked on every record route
 * with REDACT=on, as the session's values (src/steps/session-values). Another session holding
 * the same text without the secret shows it clear, whatever the key.
 */

const r = useRest({}, addEchoSessions);

describe('session values on every record route (H-B)', () => {
  // First: nothing has asked for the echo session yet.
  it('a key scoped to another root learns nothing of it and sees its own session clear', async () => {
    const tiers = jest.spyOn(BrainStore.prototype, 'transcriptTiers');
    try {
      const acp = (q: string) => r.gql(q, {}, KEYS.acp);
      for (const full of [false, true]) {
        expect((await acp(STEP(CLEAR, 1, full))).session.step).toEqual(clear('earlier'));
        expect((await acp(STEP(CLEAR, 3, full))).session.step).toEqual(clear('later'));
        expect((await acp(STEP(ECHO, 3, full))).session).toBeNull();
      }
      expect((await r.get(`/api/sessions/${ECHO}/steps/3/raw`, KEYS.acp)).status).toBe(404);
      // Only its own session's transcript was read for values.
      const asked = new Set(tiers.mock.calls.map(([entry]) => entry.id));
      expect([...asked]).toEqual([CLEAR]);
    } finally {
      tiers.mockRestore();
    }
  });

  it('GraphQL: content, thinking and tool arguments, compact and full, echo after and before', async () => {
    for (const full of [false, true]) {
      expect((await r.gql(STEP(ECHO, 1, full))).session.step).toEqual(masked('earlier'));
      expect((await r.gql(STEP(ECHO, 3, full))).session.step).toEqual(masked('later'));
      expect((await r.gql(STEP(ECHO, 2, full))).session.step).toEqual({
        content: `export DB_PASSWORD=${M} && echo $DB_PASSWORD`,
        thinking: `API_TOKEN=${M}`,
        toolCalls: [],
      });
    }
    const page = await r.gql(
      `{ session(id: "${ECHO}") { steps(first: 5) { edges { node { index content } } } } }`,
    );
    expect(page.session.steps.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { index: 0, content: expect.stringContaining('Set up the db') },
      { index: 1, content: `earlier: connecting with ${M}` },
      { index: 2, content: `export DB_PASSWORD=${M} && echo $DB_PASSWORD` },
      { index: 3, content: `later: connecting with ${M}` },
    ]);
  });

  it('the same text in another session stays clear for every key', async () => {
    for (const key of [KEYS.all, KEYS.acp]) {
      expect((await r.gql(STEP(CLEAR, 3, true), {}, key)).session.step).toEqual(clear('later'));
    }
  });

  it('REST steps, one step, raw line (both tiers) and lines', async () => {
    const json = async (p: string) => {
      const res = await r.get(p);
      expect(res.status).toBe(200);
      return JSON.parse(res.text);
    };
    const steps = await json(`/api/sessions/${ECHO}/steps?full=true`);
    const three = steps.items.find((s: { index: number }) => s.index === 3);
    expect([three.content, three.thinking, three.toolCalls[0].args]).toEqual([
      `later: connecting with ${M}`,
      `it printed ${M}`,
      { CommandLine: `ping ${M}` },
    ]);
    const one = await json(`/api/sessions/${ECHO}/steps/1`);
    expect([one.content, one.thinking]).toEqual([
      `earlier: connecting with ${M}`,
      `it printed ${M}`,
    ]);
    for (const q of ['', '?compact=true']) {
      const raw = await r.get(`/api/sessions/${ECHO}/steps/3/raw${q}`);
      expect(raw.status).toBe(200);
      const line = JSON.parse(raw.text);
      expect([line.content, line.thinking]).toEqual([
        `later: connecting with ${M}`,
        `it printed ${M}`,
      ]);
      expect(raw.text).not.toContain(V1);
      expect(raw.text).not.toContain(V2);
    }
    const file = encodeURIComponent(`${LOGS}/transcript.jsonl`);
    const line = await r.get(`/api/sessions/${ECHO}/lines/2?file=${file}`);
    expect(line.status).toBe(200);
    expect(JSON.parse(line.text).content).toBe(`earlier: connecting with ${M}`);
    const clearLine = await r.get(`/api/sessions/${CLEAR}/lines/2?file=${file}`);
    expect(JSON.parse(clearLine.text).content).toBe(`earlier: connecting with ${V1}`);
  });

  it.each(['markdown', 'json', 'atif'])('the %s export holds the echoes masked', async (format) => {
    const res = await r.get(`/api/sessions/${ECHO}/export?format=${format}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`later: connecting with ${M}`);
    expect(res.text).toContain(`earlier: connecting with ${M}`);
    expect(res.text).not.toContain(V1);
    expect(res.text).not.toContain(V2);
  });

  it('CLI raw (local) masks the echo; the other session stays clear', async () => {
    const settings = homeSettings({
      GEMINI_HOME: r.sh.home,
      CACHE_DIR: path.join(r.sh.dir, 'cli-cache'),
      REDACT: 'on',
    });
    const source = await chooseSource(settings);
    const line = JSON.parse((await localRaw(settings, source, ECHO, 1, false)).toString());
    expect([line.content, line.thinking]).toEqual([
      `earlier: connecting with ${M}`,
      `it printed ${M}`,
    ]);
    expect(line.tool_calls[0].args).toEqual({ CommandLine: `ping ${M}` });
    const other = JSON.parse((await localRaw(settings, source, CLEAR, 1, false)).toString());
    expect(other.content).toBe(`earlier: connecting with ${V1}`);
  });

  it('CLI steps and export (the local app, in process) mask the echoes', async () => {
    const local = await openLocal(
      loadConfig(
        localEnv({
          GEMINI_HOME: r.sh.home,
          CACHE_DIR: path.join(r.sh.dir, 'cli-app-cache'),
          REDACT: 'on',
          WATCH: 'off',
        }),
      ),
    );
    try {
      const d = await local.run<Data>(STEP(ECHO, 1, false));
      expect(d.session.step).toEqual(masked('earlier'));
      const md = await exportSession(local.run, ECHO, 'markdown');
      let text = '';
      for await (const chunk of md.chunks) text += chunk.toString();
      expect(text).toContain(`later: connecting with ${M}`);
      expect(text).not.toContain(V1);
      expect(text).not.toContain(V2);
    } finally {
      await local.close();
    }
  });

  it('a first learning past LEARN_WAIT_MS: RATE_LIMITED with Retry-After on each route, then answered', async () => {
    const file = path.join(r.sh.home, 'antigravity-ide/brain', ECHO, LOGS, 'transcript_full.jsonl');
    const bytes = fs.readFileSync(file);
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A transcript whose reads wait for the gate: learning it takes as long as the test says.
    const slow: FullTier = {
      key: 'session-values-e2e-slow',
      identity: '1:1',
      size: bytes.length,
      read: async (start, end) => {
        await gate;
        return bytes.subarray(start, end);
      },
    };
    const tiers = jest.spyOn(BrainStore.prototype, 'transcriptTiers').mockResolvedValue([slow]);
    try {
      const message =
        `This session's transcript (${bytes.length} bytes) is still being read for the secret ` +
        'values every record of it masks with redaction on; no record of it is answered before ' +
        'they are known. Retry in 1 s.';
      const body = await ask(r.server, STEP(ECHO, 3, true), {}, KEYS.all);
      expect(body.data?.session?.step ?? null).toBeNull();
      expect(
        body.errors?.map((e) => [e.message, e.extensions?.code, e.extensions?.retryAfterSeconds]),
      ).toEqual([[message, 'RATE_LIMITED', 1]]);
      // An artifact asked by a masked name is looked up with the session's values too.
      const byName = `{ session(id: "${ECHO}") { artifact(name: "plan-${M}.md") { name } } }`;
      const named = await ask(r.server, byName, {}, KEYS.all);
      expect(
        named.errors?.map((e) => [e.message, e.extensions?.code, e.extensions?.retryAfterSeconds]),
      ).toEqual([[message, 'RATE_LIMITED', 1]]);
      for (const route of [`/api/sessions/${ECHO}/steps/3`, `/api/sessions/${ECHO}/steps/3/raw`]) {
        const res = await r.get(route);
        expect([
          res.status,
          res.headers['retry-after'],
          JSON.parse(res.text).error.message,
        ]).toEqual([429, '1', message]);
      }
      release();
      expect((await r.gql(STEP(ECHO, 3, true))).session.step).toEqual(masked('later'));
    } finally {
      release();
      tiers.mockRestore();
    }
  });
});

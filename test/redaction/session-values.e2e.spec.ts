import * as path from 'node:path';
import { chooseSource } from '../../src/config/brain-source';
import { homeSettings } from '../../src/config/home-settings';
import { localRaw } from '../../src/cli/source/local-raw';
import { BrainStore } from '../../src/brain/store';
import { put } from '../fixtures/fs-util';
import { at, pairFiles, planner, userInput, type FullRecord } from '../fixtures/records';
import { KEYS } from '../e2e/search-home';
import { useRest } from '../rest/rest-home';

/**
 * Review H-B: a secret found in one record (`export DB_PASSWORD=V`) and echoed in the next or
 * the one before (`later: connecting with V`, found by nothing) is masked on every record route
 * with REDACT=on, as the session's values (src/steps/session-values). Another session holding
 * the same text without the secret shows it clear, whatever the key.
 */

const V1 = 'Jn7Xm2vL9pT4Q';
const V2 = 'Qw8rT5yU2iO7pL3k';
const ECHO = '5eaf0005-0000-4000-8000-000000000005';
const CLEAR = '5eaf0006-0000-4000-8000-000000000006';
const M = '[REDACTED:password]';
const LOGS = '.system_generated/logs';
const BASE = '2026-07-05T10:00:00Z';

/** An echo of each value in content, thinking and a tool argument. */
const echoes = (step: number, word: string): FullRecord =>
  planner(step, at(BASE, step), {
    content: `${word}: connecting with ${V1}`,
    thinking: `it printed ${V2}`,
    tool_calls: [{ name: 'run_command', args: { CommandLine: `ping ${V1}` } }],
  });

const SECRETS = planner(2, at(BASE, 2), {
  content: 'export DB_PASSWORD=' + V1 + ' && echo $DB_PASSWORD',
  thinking: `API_TOKEN=${V2}`,
});

function session(dir: string, records: FullRecord[]): void {
  const { compact, full } = pairFiles(records);
  put(path.join(dir, LOGS, 'transcript.jsonl'), compact);
  put(path.join(dir, LOGS, 'transcript_full.jsonl'), full);
}

const request = userInput(0, at(BASE, 0), { request: 'Set up the db', localTime: at(BASE, 0) });

const r = useRest({}, (sh) => {
  session(path.join(sh.home, 'antigravity-ide/brain', ECHO), [
    request,
    echoes(1, 'earlier'),
    SECRETS,
    echoes(3, 'later'),
  ]);
  session(path.join(sh.home, 'antigravity-acp/brain', CLEAR), [
    request,
    echoes(1, 'earlier'),
    echoes(3, 'later'),
  ]);
});

const STEP = (id: string, index: number, full: boolean) =>
  `{ session(id: "${id}") { step(index: ${index}) { content(full: ${full}) thinking(full: ${full}) toolCalls(full: ${full}) { args } } } }`;

const masked = (word: string) => ({
  content: `${word}: connecting with ${M}`,
  thinking: `it printed ${M}`,
  toolCalls: [{ args: { CommandLine: `ping ${M}` } }],
});
const clear = (word: string) => ({
  content: `${word}: connecting with ${V1}`,
  thinking: `it printed ${V2}`,
  toolCalls: [{ args: { CommandLine: `ping ${V1}` } }],
});

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
});

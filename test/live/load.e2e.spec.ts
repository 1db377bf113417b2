import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { childEnv, REPO, serverArgs } from '../security/attack-setup';
import { subscribe, urlOf, type Sub, type Transport } from './clients';
import { buildLiveTree, IDE_B, KEY_ALL, line, type LiveTree } from './live-home';

/**
 * 200 concurrent subscribers of one session on loopback (100 per transport, each on its own
 * connection) against a real server process: every one receives every record in order,
 * replayed then followed while lines are appended in bursts; the server's RSS stays within
 * 100 MB of idle; closing them frees every subscription.
 */

const STEPS = 'subscription($id: String!) { steps(sessionId: $id) { position index } }';
const PER_TRANSPORT = 100;
const REPLAYED = 50;
const APPENDED = 50;

let tree: LiveTree;
let child: ChildProcess;
let port: number;

async function metric(name: string): Promise<number> {
  const res = await fetch(`${urlOf(port, 'http')}/metrics`, {
    headers: { authorization: `Bearer ${KEY_ALL}` },
  });
  const text = await res.text();
  const m = new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`no ${name} in /metrics`);
  return Number(m[1]);
}

beforeAll(async () => {
  tree = buildLiveTree();
  const extra = Array.from({ length: REPLAYED - 1 }, (_, i) => line(i + 1, `r${i + 1}`));
  tree.append(IDE_B, extra.join(''));
  child = spawn(process.execPath, serverArgs(), {
    cwd: REPO,
    env: childEnv({
      PATH: process.env.PATH,
      PORT: '0',
      LOG_LEVEL: 'info',
      GEMINI_HOME: tree.home,
      API_KEYS_FILE: tree.keysFile,
      CACHE_DIR: path.join(tree.root, 'cache'),
      MAX_SUBSCRIPTIONS: '1000',
      RATE_LIMIT_POINTS: '100000000',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /GraphQL API at http:\/\/127\.0\.0\.1:(\d+)\/graphql/.exec(out);
      if (m && out.includes(': ready')) resolve(Number(m[1]));
    });
    child.on('exit', () => reject(new Error(`the server stopped:\n${out}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  if (tree) fs.rmSync(tree.root, { recursive: true, force: true });
});

it('delivers every record in order to 200 subscribers, and frees them when they leave', async () => {
  const idle = await metric('brainql_process_resident_memory_bytes');
  const subs: Sub[] = [];
  for (const t of ['ws', 'sse'] as Transport[]) {
    for (let i = 0; i < PER_TRANSPORT; i++) {
      subs.push(subscribe(t, port, STEPS, { id: IDE_B }, KEY_ALL));
    }
  }
  for (const s of subs) await s.waitFor(REPLAYED, 60_000);
  for (let burst = 0; burst < APPENDED / 10; burst++) {
    const lines = Array.from({ length: 10 }, (_, i) => REPLAYED + burst * 10 + i);
    tree.append(IDE_B, lines.map((n) => line(n, `a${n}`)).join(''));
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const s of subs) await s.waitFor(REPLAYED + APPENDED, 60_000);
  const peak = await metric('brainql_process_resident_memory_bytes');
  const expected = Array.from({ length: REPLAYED + APPENDED }, (_, n) => ({
    data: { steps: { position: n, index: n } },
  }));
  for (const s of subs) expect(s.results).toEqual(expected);
  expect(await metric('brainql_live_subscriptions{transport="ws"}')).toBe(PER_TRANSPORT);
  expect(await metric('brainql_live_subscriptions{transport="sse"}')).toBe(PER_TRANSPORT);
  expect(peak - idle).toBeLessThan(100 * 1024 * 1024);

  await Promise.all(subs.map((s) => s.close()));
  const open = async () =>
    (await metric('brainql_live_subscriptions{transport="ws"}')) +
    (await metric('brainql_live_subscriptions{transport="sse"}'));
  let left = await open();
  for (let i = 0; i < 200 && left > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = await open();
  }
  expect(left).toBe(0);
  const sent = PER_TRANSPORT * (REPLAYED + APPENDED);
  expect(await metric('brainql_live_events_total{transport="ws",field="steps"}')).toBe(sent);
  expect(await metric('brainql_live_events_total{transport="sse",field="steps"}')).toBe(sent);
  console.log(`200 subscribers: server RSS ${Math.round((peak - idle) / 1048576)} MiB above idle`);
}, 180_000);

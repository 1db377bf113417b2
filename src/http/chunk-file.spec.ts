import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { makeTempDir } from '../../test/fixtures/brain-home';
import { put } from '../../test/fixtures/fs-util';
import { Redactor } from '../redaction/redactor';
import { inTranscriptView } from './chunk-file';
import { openSessionFile, type SessionFile } from './session-file';

/** A chunk's masked edge shares stand for its bytes however the download reads them. */

const FULL = '.system_generated/logs/chunks/transcript_full';
const TOKEN = 'ghp_H7fHxY3kBQa9OJC6Spil4G2mTjcqZIMs7BJm';
const on = new Redactor({ enabled: true, extraPatterns: [] });
const off = new Redactor({ enabled: false, extraPatterns: [] });

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(makeTempDir('brainql-chunk-file-'));
  const line = `{"t":"${TOKEN}"}\n`;
  put(path.join(dir, FULL, '000.jsonl'), `{"n":0}\n${line.slice(0, 12)}`);
  put(path.join(dir, FULL, '001.jsonl'), `${line.slice(12)}{"n":1}\n${line.slice(0, 20)}`);
  put(path.join(dir, FULL, '002.jsonl'), `${line.slice(20)}`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function open(rel: string, redactor = on): Promise<SessionFile> {
  const file = (await openSessionFile(dir, rel)) as SessionFile;
  return inTranscriptView(dir, file, redactor);
}
async function drain(s: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts).toString('latin1');
}

describe('inTranscriptView', () => {
  it('gives the same masked bytes to read, a partial read and streams', async () => {
    const f = await open(`${FULL}/001.jsonl`);
    const whole = (await f.read(0, f.size)).toString('latin1');
    expect(whole).toBe('TED:github-token]*****************"}\n{"n":1}\n{"t":"[REDACTED:gith');
    expect(f.continues).toBe(true);
    expect((await f.read(3, 30)).toString('latin1')).toBe(whole.slice(3, 33));
    expect(await drain(f.stream(0, f.size - 1))).toBe(whole);
    const g = await open(`${FULL}/001.jsonl`);
    expect(await drain(g.stream(5, f.size - 3))).toBe(whole.slice(5, f.size - 2));
    await f.close();
  });

  it('leaves other files, and every file with redaction off, as they are', async () => {
    put(path.join(dir, 'a.jsonl'), 'x');
    const plain = (await openSessionFile(dir, 'a.jsonl')) as SessionFile;
    expect(await inTranscriptView(dir, plain, on)).toBe(plain);
    await plain.close();
    const raw = await open(`${FULL}/001.jsonl`, off);
    expect((await raw.read(0, 6)).toString('latin1')).toBe(TOKEN.slice(6, 12));
    expect(raw.continues).toBeUndefined();
    await raw.close();
  });
});

import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { startAppOver } from '../e2e/harness';

/**
 * A server that collects: keys of both roles, an INGEST_DIR of its own, and (optionally) a
 * mounted home. Keys are fixed strings: a test names the one it sends.
 */

export const KEYS = {
  /** push keys: their names are the sources */
  ci: 'bql_push-ci-runner',
  laptop: 'bql_push-laptop',
  /** read keys */
  all: 'bql_read-all',
  ciReader: 'bql_read-ci-only',
  acpCi: 'bql_read-acp-ci',
} as const;

export function writeKeys(dir: string): string {
  const file = path.join(dir, 'keys.json');
  const entry = (name: string, key: string, more: object = {}) => ({
    name,
    sha256: hashKey(key).toString('hex'),
    ...more,
  });
  fs.writeFileSync(
    file,
    JSON.stringify([
      entry('ci-runner', KEYS.ci, { push: true }),
      entry('laptop', KEYS.laptop, { push: true }),
      entry('all', KEYS.all),
      entry('ci-reader', KEYS.ciReader, { sources: ['ci-runner'] }),
      entry('acp-ci', KEYS.acpCi, { sources: ['ci-runner'], flavors: ['antigravity-acp'] }),
    ]),
  );
  return file;
}

export interface Collector {
  app: INestApplication;
  server: http.Server;
  store: BrainStore;
  url: string;
  ingestDir: string;
}

export async function startCollector(
  dir: string,
  home: string,
  env: Record<string, string> = {},
): Promise<Collector> {
  const ingestDir = path.join(dir, 'ingest');
  const app = await startAppOver(home, {
    API_KEYS_FILE: writeKeys(dir),
    INGEST_DIR: ingestDir,
    ...env,
  });
  const server = app.getHttpServer() as http.Server;
  const { port } = server.address() as AddressInfo;
  return { app, server, store: app.get(BrainStore), url: `http://127.0.0.1:${port}`, ingestDir };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: Record<string, unknown> | null;
  text: string;
}

/** One request with the path sent byte for byte. */
export function send(
  server: http.Server,
  method: string,
  rawPath: string,
  key: string | null,
  body?: Buffer | string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: rawPath,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined
            ? {
                'content-type': 'application/octet-stream',
                'content-length': Buffer.byteLength(body),
              }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let json: Record<string, unknown> | null = null;
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every regular file under `dir`, relative with "/", sorted (links skipped). */
export function filesUnder(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesUnder(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out.sort();
}

/** Pushes a session folder file by file with plain PUTs (offset 0), as a minimal client would. */
export async function pushDir(
  server: http.Server,
  key: string,
  flavor: string,
  sessionDir: string,
): Promise<void> {
  const id = path.basename(sessionDir);
  for (const rel of filesUnder(sessionDir)) {
    const encoded = rel.split('/').map(encodeURIComponent).join('/');
    const a = await send(
      server,
      'PUT',
      `/api/ingest/sessions/${flavor}/${id}/files/${encoded}?offset=0`,
      key,
      fs.readFileSync(path.join(sessionDir, rel)),
    );
    if (a.status !== 200) throw new Error(`${rel}: ${a.status} ${a.text}`);
  }
}

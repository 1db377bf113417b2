import * as net from 'node:net';

/** What a server cannot listen on, said in one line (null: not a listening failure). */
const WHY: Record<string, string> = {
  EADDRINUSE: 'the port is already in use: stop what holds it, or set PORT to another port',
  EACCES: 'the port needs privileges this process lacks: set PORT to 1024 or more',
  EADDRNOTAVAIL: 'the host is not an address of this machine: check HOST',
};

export function listenFailure(err: unknown, host: string, port: number): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(code in WHY)) return null;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `Cannot listen on ${shown}:${port} (${code}): ${WHY[code]}.`;
}

/**
 * Listens on the address and closes at once, before the app is made: a busy port then stops
 * the start with listenFailure's one line alone, where Nest had logged its start and an error
 * line first (review 22). Port 0 (any free port) cannot be busy. An address taken between this
 * and the app's listen still fails there, with the same line.
 */
export function probeListen(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

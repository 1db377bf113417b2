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

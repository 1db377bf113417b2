/** The text of id `id` in crash.spec: long enough that segments take a while to write. */
export function crashText(id: number): string {
  const words = ['Alpha', 'beta', 'GAMMA', 'délta', 'ÉPSILON', '🚀zeta'];
  const out: string[] = [];
  for (let i = 0; i < 400; i++) out.push(words[(id * 7 + i * ((id % 5) + 1)) % words.length]);
  return `${out.join(' ')} id${id}end`;
}

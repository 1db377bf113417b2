import * as fs from 'node:fs';
import * as path from 'node:path';
import { IDS, KEYS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * Review 22: with RATE_LIMIT_POINTS=5 (5 × 64 KiB a minute), a 1 MiB file (1 point for asking,
 * 16 for its bytes) answered 429 "Retry in 1 s" on every try: the asking's point kept the
 * bucket from ever being full, which a cost over the whole bucket waits for. It now runs from a
 * bucket full but for that point, leaving a debt, as a dear query does.
 */
const BIG = 'notes/big.txt';
const r = useRest({ RATE_LIMIT_POINTS: '5' }, (sh) => {
  fs.mkdirSync(path.join(sh.dirs.ide, 'notes'));
  fs.writeFileSync(path.join(sh.dirs.ide, BIG), 'x'.repeat(1024 * 1024 - 1) + '\n');
});

it('a download dearer than the whole bucket runs once, then the debt is paid by waiting', async () => {
  const url = `/api/sessions/${IDS.ide}/files/${BIG}`;
  const first = await r.get(url, KEYS.ide);
  expect([first.status, first.text.length]).toEqual([200, 1024 * 1024]);
  const again = await r.get(url, KEYS.ide);
  expect(again.status).toBe(429);
  expect(again.body.error.code).toBe('RATE_LIMITED');
  // 12 points of debt and 1 to ask, at 5 a minute: 156 s.
  const wait = Number(again.headers['retry-after']);
  expect(wait >= 150 && wait <= 156).toBe(true);
});

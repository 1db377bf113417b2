import { Redactor } from './redactor';
import { MAX_TOKEN_RUN } from './rules';

/**
 * A counted token class takes the whole run of its alphabet, up to MAX_TOKEN_RUN: unbounded,
 * a megabytes-long run (`glpat-aaaa…`) overflowed the regex engine's backtrack stack and the
 * redactor threw (RangeError: Maximum call stack size exceeded) instead of masking.
 */
const redactor = new Redactor({ enabled: true, extraPatterns: [] });

it('masks a 16 MiB run after a token prefix without overflowing the regex stack', () => {
  const run = 'a'.repeat(16 * 1024 * 1024);
  const out = redactor.redactText(`x glpat-${run} y`);
  expect(out.slice(0, 25)).toBe('x [REDACTED:gitlab-token]');
  // What follows the longest run a rule takes is the rest of the (absurd) run.
  expect(out.length).toBe(`x [REDACTED:gitlab-token]`.length + run.length - MAX_TOKEN_RUN + 2);
});

it('masks a real-length token whole, its tail included', () => {
  const token = `glpat-${'A1b2C3d4E5'.repeat(2)}XYZW12`;
  expect(redactor.redactText(`t=${token} ok`)).toBe('t=[REDACTED:gitlab-token] ok');
});

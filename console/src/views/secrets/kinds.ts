import { shown } from '../../components/text';

/**
 * A `kind=` no finding has, said with the kinds found: alone, "No secret was found" read as if
 * the sessions held none (a typo, or `kind=<b>x`, looked like a clean home). The page then
 * leaves it out, as the other views leave out a bad parameter: every kind is listed.
 */
export function kindProblems(kind: string | undefined, found: readonly string[]): string[] {
  if (!kind || found.includes(kind)) return [];
  const names = found.length ? found.map(shown).join(', ') : 'none';
  return [
    `kind=${shown(kind)} is no kind found in the sessions your key reads (found: ${names}); it is left out.`,
  ];
}

/**
 * What an empty list says: under a kind, that none of that kind was found ("No secret was
 * found" under `kind=` read as if the sessions held none at all).
 */
export function noneFound(kind: string | undefined): string {
  return kind
    ? `No finding of kind ${shown(kind)} in the sessions your key reads.`
    : 'No secret was found in the sessions your key reads.';
}

import { shown } from '../../components/text';

/**
 * The kind the page lists, of the URL's `kind=` (repeated ones come joined with commas), and
 * a sentence for each value left out. A kind no finding has is said with the kinds found:
 * alone, "No secret was found" read as if the sessions held none (a typo, or `kind=<b>x`,
 * looked like a clean home); it is left out, as the other views leave out a bad parameter.
 * Only the unknown values go: `kind=bogus&kind=aws-access-key` lists the aws-access-key
 * findings (it listed every kind, saying "kind=bogus,aws-access-key is no kind"; #20, review
 * 6). The page reads one kind: of several known, the first is used, and the others are said.
 */
export function kindChoice(
  asked: string | undefined,
  found: readonly string[],
): { kind?: string; problems: string[] } {
  const values = [
    ...new Set(
      (asked ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  const known = values.filter((k) => found.includes(k));
  const unknown = values.filter((k) => !found.includes(k));
  const problems: string[] = [];
  if (unknown.length) {
    const names = found.length ? found.map(shown).join(', ') : 'none';
    const one = unknown.length === 1;
    problems.push(
      `kind=${unknown.map(shown).join(', kind=')} ${one ? 'is' : 'are'} no kind found in the sessions your key reads (found: ${names}); ${one ? 'it is' : 'they are'} left out.`,
    );
  }
  if (known.length > 1) {
    problems.push(
      `One kind is listed at a time: ${shown(known[0])}; ${known.slice(1).map(shown).join(', ')} ${known.length === 2 ? 'is' : 'are'} left out.`,
    );
  }
  return { kind: known[0], problems };
}

/** The sentences of kindChoice alone. */
export function kindProblems(kind: string | undefined, found: readonly string[]): string[] {
  return kindChoice(kind, found).problems;
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

/** The home index's search engine: FTS5 (the default) or the trigram segments (experimental). */
export type SearchEngine = 'fts5' | 'trigram';

/** INDEX_ENGINE's engine (config validates the variable; unset: FTS5). */
export function searchEngine(value: string | undefined): SearchEngine {
  return value === 'trigram' ? 'trigram' : 'fts5';
}

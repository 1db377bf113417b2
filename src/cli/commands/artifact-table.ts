import { localTime, text } from '../output/format';
import type { Printer } from '../output/printer';

/** An artifact as `summary` and `artifacts` ask for it. */
export interface ArtifactItem {
  name: string;
  kind: string;
  summary: string | null;
  updatedAt: string | null;
  size: number;
  modifiedAt: string;
}

/** The artifacts table both commands print. */
export function printArtifactTable(out: Printer, items: readonly ArtifactItem[]): void {
  out.table(
    [
      { header: 'name' },
      { header: 'kind' },
      { header: 'bytes', align: 'right' },
      { header: 'modified' },
      { header: 'summary', flex: true },
    ],
    items.map((a) => [a.name, a.kind, text(a.size), localTime(a.modifiedAt), text(a.summary)]),
  );
}

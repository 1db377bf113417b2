import { html } from 'diff2html';
import 'diff2html/bundles/css/diff2html.min.css';
import { useMemo } from 'react';
import { sanitize } from './sanitize';
import { shown } from './text';

/** A unified diff (FileChange.diff) by diff2html, which escapes the lines; sanitised again. */
export default function Diff({ diff, sideBySide }: { diff: string; sideBySide: boolean }) {
  const out = useMemo(
    () =>
      sanitize(
        html(shown(diff), {
          drawFileList: false,
          outputFormat: sideBySide ? 'side-by-side' : 'line-by-line',
          matching: 'none',
        }),
      ),
    [diff, sideBySide],
  );
  return <div className="diff" tabIndex={0} dangerouslySetInnerHTML={{ __html: out }} />;
}

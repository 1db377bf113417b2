import { html, parse } from 'diff2html';
import 'diff2html/bundles/css/diff2html.min.css';
import { useMemo } from 'react';
import { sanitize } from './sanitize';
import { shown } from './text';

/**
 * Our diffs name a created file's old side (and a deleted file's new side) /dev/null, as
 * `diff -u` does; diff2html reads only git's `new file mode` lines for that and would label
 * the file RENAMED. A file that was created reads ADDED, one removed DELETED.
 */
function files(diff: string) {
  return parse(diff).map((f) => ({
    ...f,
    isNew: f.isNew || f.oldName === '/dev/null',
    isDeleted: f.isDeleted || f.newName === '/dev/null',
  }));
}

/** A unified diff (FileChange.diff) by diff2html, which escapes the lines; sanitised again. */
export default function Diff({ diff, sideBySide }: { diff: string; sideBySide: boolean }) {
  const out = useMemo(
    () =>
      sanitize(
        html(files(shown(diff)), {
          drawFileList: false,
          outputFormat: sideBySide ? 'side-by-side' : 'line-by-line',
          matching: 'none',
        }),
      ),
    [diff, sideBySide],
  );
  return <div className="diff" tabIndex={0} dangerouslySetInnerHTML={{ __html: out }} />;
}

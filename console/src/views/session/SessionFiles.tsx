import { FileLink } from '../../components/FileLink';
import { when } from '../../components/text';

interface File {
  path: string;
  kind: string;
  size: number;
  modifiedAt: string;
}

/** The session's files beside its transcripts and artifacts, each a download. */
export function SessionFiles({ id, files }: { id: string; files: readonly File[] }) {
  return (
    <section className="session-files" aria-labelledby="files-title">
      <h2 id="files-title">Other files</h2>
      {files.length === 0 ? (
        <p>No other file in this session.</p>
      ) : (
        <div className="scroll-x">
          <table className="files">
            <thead>
              <tr>
                <th scope="col">file</th>
                <th scope="col">kind</th>
                <th scope="col" className="num">
                  bytes
                </th>
                <th scope="col">modified</th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={f.path}>
                  <td>
                    <FileLink id={id} path={f.path} />
                  </td>
                  <td>{f.kind.toLowerCase().replace(/_/g, ' ')}</td>
                  <td className="num">{f.size}</td>
                  <td className="nowrap">{when(f.modifiedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

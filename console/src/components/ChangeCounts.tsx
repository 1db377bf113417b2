import { diffCounts } from './diff-counts';

/** A change's `+added −removed`, counted in its diff as shown (see diffCounts). */
export function ChangeCounts(props: { diff: string; linesAdded: number; linesRemoved: number }) {
  const counted = diffCounts(props.diff);
  return (
    <>
      <span className="added" title="lines added in the diff as shown">
        +{counted?.added ?? props.linesAdded}
      </span>{' '}
      <span className="removed" title="lines removed in the diff as shown">
        −{counted?.removed ?? props.linesRemoved}
      </span>
    </>
  );
}

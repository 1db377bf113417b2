import type { ReactNode } from 'react';

/**
 * The URL's filter values left out (filterProblems), each said above the view it filters;
 * `children`: a notice of the page's own with links (an ambiguous prefix's sessions).
 */
export function FilterProblems({
  problems,
  children,
}: {
  problems: readonly string[];
  children?: ReactNode;
}) {
  if (problems.length === 0 && !children) return null;
  return (
    <div role="status" data-testid="filter-problems">
      {problems.map((p) => (
        <p key={p} className="notice">
          {p}
        </p>
      ))}
      {children}
    </div>
  );
}

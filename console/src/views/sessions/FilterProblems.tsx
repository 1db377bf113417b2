/** The URL's filter values left out (filterProblems), each said above the view it filters. */
export function FilterProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <div role="status" data-testid="filter-problems">
      {problems.map((p) => (
        <p key={p} className="notice">
          {p}
        </p>
      ))}
    </div>
  );
}

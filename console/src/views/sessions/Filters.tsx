import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { appliedSearch, envChoice, errorsChoice, type SessionSearch } from './filters';

const ENVIRONMENT_OPTIONS = ['ide', 'cli', 'acp'];

/** The filter bar: applying it rewrites the URL, which is the only state of the table. */
export function Filters({ search }: { search: SessionSearch }) {
  const navigate = useNavigate();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void navigate({ to: '/', search: appliedSearch(new FormData(e.currentTarget)) });
  };
  // What the query uses: a list (`?env=acp&env=cli`) is an option of its own, so the select
  // shows it and Apply keeps it; refused values show as "any" (FilterProblems says why).
  const env = envChoice(search.env);
  const errors = errorsChoice(search.errors);
  // key: a URL change (a chart's link, back/forward) resets the uncontrolled fields.
  return (
    <form className="filters" onSubmit={apply} key={JSON.stringify(search)} role="search">
      <label>
        Text <input name="q" type="search" defaultValue={search.q ?? ''} />
      </label>
      <label>
        Environment
        <select name="env" defaultValue={env}>
          <option value="">any</option>
          {ENVIRONMENT_OPTIONS.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
          {env !== '' && !ENVIRONMENT_OPTIONS.includes(env) && (
            <option value={env}>{env.split(',').join(', ')}</option>
          )}
        </select>
      </label>
      <label>
        Flavor <input name="flavor" defaultValue={search.flavor ?? ''} size={14} />
      </label>
      <label>
        Model <input name="model" defaultValue={search.model ?? ''} size={14} />
      </label>
      <label>
        Tool <input name="tool" defaultValue={search.tool ?? ''} size={14} />
      </label>
      <label>
        Hour (UTC){' '}
        <input name="hour" defaultValue={search.hour ?? ''} size={10} placeholder="mon-09" />
      </label>
      <label>
        Errors
        <select name="errors" defaultValue={errors === undefined ? '' : String(errors)}>
          <option value="">any</option>
          <option value="true">with errors</option>
          <option value="false">without</option>
        </select>
      </label>
      <label>
        From <input name="from" type="date" defaultValue={search.from ?? ''} />
      </label>
      <label>
        To <input name="to" type="date" defaultValue={search.to ?? ''} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

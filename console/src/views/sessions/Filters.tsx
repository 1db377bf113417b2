import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { parseSessionSearch, type SessionSearch } from './filters';

/** The filter bar: applying it rewrites the URL, which is the only state of the table. */
export function Filters({ search }: { search: SessionSearch }) {
  const navigate = useNavigate();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = Object.fromEntries(new FormData(e.currentTarget));
    void navigate({ to: '/', search: parseSessionSearch(form) });
  };
  // key: a URL change (a chart's link, back/forward) resets the uncontrolled fields.
  return (
    <form className="filters" onSubmit={apply} key={JSON.stringify(search)} role="search">
      <label>
        Text <input name="q" type="search" defaultValue={search.q ?? ''} />
      </label>
      <label>
        Environment
        <select name="env" defaultValue={search.env ?? ''}>
          <option value="">any</option>
          <option value="ide">ide</option>
          <option value="cli">cli</option>
          <option value="acp">acp</option>
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
        <select name="errors" defaultValue={search.errors ?? ''}>
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

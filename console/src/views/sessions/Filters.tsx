import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import {
  appliedSearch,
  ENVIRONMENTS,
  envChoice,
  errorsChoice,
  type SessionSearch,
} from './filters';
import { useKnownValues } from './known-values';

/** The filter bar: applying it rewrites the URL, which is the only state of the table. */
export function Filters({ search }: { search: SessionSearch }) {
  const navigate = useNavigate();
  // Each field offers the values of the sessions the key reads (a value matches exactly).
  const known = useKnownValues();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void navigate({ to: '/', search: appliedSearch(new FormData(e.currentTarget)) });
  };
  // What the query uses (`?env=acp,cli` or `?env=acp&env=cli`), each one checked, so Apply
  // keeps it; refused values are not (FilterProblems says why).
  const env = envChoice(search.env).split(',');
  const errors = errorsChoice(search.errors);
  // key: a URL change (a chart's link, back/forward) resets the uncontrolled fields.
  return (
    <form className="filters" onSubmit={apply} key={JSON.stringify(search)} role="search">
      <label>
        Text <input name="q" type="search" defaultValue={search.q ?? ''} size={14} />
      </label>
      {/* A multi-select: each checked one is an `env` value (Apply joins them: env=acp,cli);
          none checked is any environment. */}
      <fieldset className="choices">
        <legend>Environment</legend>
        <span>
          {ENVIRONMENTS.map((o) => (
            <label key={o} className="check">
              <input type="checkbox" name="env" value={o} defaultChecked={env.includes(o)} />
              {o}
            </label>
          ))}
        </span>
      </fieldset>
      <label>
        Flavor{' '}
        <input name="flavor" defaultValue={search.flavor ?? ''} size={9} list="known-flavor" />
      </label>
      <label>
        Model <input name="model" defaultValue={search.model ?? ''} size={9} list="known-model" />
      </label>
      <label>
        Tool <input name="tool" defaultValue={search.tool ?? ''} size={9} list="known-tool" />
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
      {(['flavor', 'model', 'tool'] as const).map((k) => (
        <datalist key={k} id={`known-${k}`} data-testid={`known-${k}`}>
          {known?.[k].map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ))}
      <button type="submit">Apply</button>
    </form>
  );
}

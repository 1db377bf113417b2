import { Redactor } from './redactor';

/**
 * The rule for session folder names (REDACT=on): a folder whose name the redactor flags is not
 * served as a session, since its id would show in every listing, URL, export, search hit and
 * log. Undefined when redaction is off (every folder is served).
 */
export function secretNameTest(opts: {
  redact: boolean;
  redactPatterns: string[];
}): ((name: string) => boolean) | undefined {
  if (!opts.redact) return undefined;
  const redactor = new Redactor({ enabled: true, extraPatterns: opts.redactPatterns });
  return (name) => redactor.redactText(name) !== name;
}

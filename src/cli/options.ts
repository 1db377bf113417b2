import { InvalidArgumentError, Option, type Command } from 'commander';
import { HOUR_FORMS, parseHour, splitHours } from '../sessions/hour-names';

/** Option parsers and the options every command takes. */

export interface CommonOptions {
  url?: string;
  key?: string;
  json?: boolean;
  md?: boolean;
}

/** A whole number of at least `min`. */
export function integer(min: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim()) || Number(value) < min)
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return Number(value);
  };
}

/** A positive number of seconds (fractions allowed). */
export function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError('expected a number of seconds');
  return n;
}

/**
 * A repeatable option whose values are also comma-separated, matched case-insensitively
 * against `values` and kept upper-case (GraphQL enum values); no `values`: kept as given.
 */
export function repeated(values?: readonly string[]) {
  return (value: string, previous: string[] = []): string[] => {
    const parts = value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    for (const p of parts) {
      if (values && !values.includes(p.toUpperCase()))
        throw new InvalidArgumentError(
          `expected one of ${values.map((v) => v.toLowerCase()).join(', ')}`,
        );
    }
    return [...previous, ...parts.map((p) => (values ? p.toUpperCase() : p))];
  };
}

/**
 * A repeatable option of hours of the week, also comma-separated, in the console's forms
 * (`wed-10`, or 0-167): SessionFilter.hourOfWeek's numbers, in order.
 */
export function hoursOfWeek(value: string, previous: number[] = []): number[] {
  return [
    ...previous,
    ...splitHours(value).map((written) => {
      const hour = parseHour(written);
      if (hour === null)
        throw new InvalidArgumentError(
          `"${written}" is no hour of the week: expected ${HOUR_FORMS}`,
        );
      return hour;
    }),
  ];
}

/** A single enum value, case-insensitive, upper-cased. */
export function oneOf(values: readonly string[]) {
  return (value: string): string => {
    const v = value.trim().toUpperCase();
    if (!values.includes(v))
      throw new InvalidArgumentError(
        `expected one of ${values.map((x) => x.toLowerCase()).join(', ')}`,
      );
    return v;
  };
}

/** --url/--key/--json (and --md where the command prints text) on a command. */
export function withCommon(cmd: Command, md = true): Command {
  cmd
    .option('--url <url>', 'ask the brainql server at URL instead of reading the local home')
    .addOption(new Option('--key <key>', 'API key for --url').env('BRAINQL_KEY'))
    .option('--json', 'print one JSON document (GraphQL field names)');
  if (md) cmd.option('--md', 'print markdown');
  return cmd;
}

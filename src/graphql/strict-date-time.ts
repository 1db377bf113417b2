import { GraphQLScalarType, Kind, type GraphQLSchema } from 'graphql';

const CALENDAR_DATE = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/**
 * Whether text starting with a calendar date names a day its month does not have
 * (`2026-02-30`, `2026-04-31`): JavaScript's Date rolls those over to the next month, while it
 * refuses a month 13. Text without such a start is left to Date.
 */
export function impossibleDate(text: string): boolean {
  const m = CALENDAR_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12) return false; // Date refuses it already
  return day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const INVALID = () => new Date(NaN);
const strict = new WeakSet<GraphQLScalarType>();

/**
 * The DateTime scalar refuses impossible dates as it refuses unparsable text: as an invalid
 * Date, which every argument taking one answers with BAD_USER_INPUT naming it (see
 * session-filter.ts), GraphQL variables, literals and REST parameters alike. Patched in place
 * on the built schema (Nest's scalar parses with `new Date`), once per scalar object.
 */
export function withStrictDateTime(schema: GraphQLSchema): GraphQLSchema {
  const type = schema.getType('DateTime');
  if (!(type instanceof GraphQLScalarType) || strict.has(type)) return schema;
  strict.add(type);
  const { parseValue, parseLiteral } = type;
  type.parseValue = (value: unknown) =>
    typeof value === 'string' && impossibleDate(value) ? INVALID() : parseValue.call(type, value);
  type.parseLiteral = (ast, variables) =>
    ast.kind === Kind.STRING && impossibleDate(ast.value)
      ? INVALID()
      : parseLiteral.call(type, ast, variables);
  return schema;
}

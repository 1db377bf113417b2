import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** A JSON Schema (OpenAPI 3.1 dialect). */
export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  // `{}` (any JSON value) already admits null.
  return Object.keys(schema).length === 0 ? schema : { anyOf: [schema, { type: 'null' }] };
}

/**
 * The JSON Schema of what a GraphQL document answers at `path` (response keys from the root),
 * walked through the real schema: the REST routes answer these selections as they are, so the
 * OpenAPI document is derived from them rather than written a second time.
 */
export function selectionSchema(
  schema: GraphQLSchema,
  document: string,
  path: readonly string[],
): JsonSchema {
  const doc = parse(document);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const d of doc.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    if (d.kind === Kind.OPERATION_DEFINITION) operation = d;
  }
  if (!operation) throw new Error('no operation');

  /** Response key -> (field type, its selection sets), fragments expanded, in order. */
  function fieldsOf(parent: GraphQLObjectType, sets: readonly SelectionSetNode[]) {
    const out = new Map<string, { type: GraphQLOutputType; sets: SelectionSetNode[] }>();
    const visit = (set: SelectionSetNode) => {
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const key = sel.alias?.value ?? sel.name.value;
          const def = parent.getFields()[sel.name.value];
          if (!def) throw new Error(`${parent.name}.${sel.name.value} is not in the schema`);
          const entry = out.get(key) ?? { type: def.type, sets: [] };
          if (sel.selectionSet) entry.sets.push(sel.selectionSet);
          out.set(key, entry);
        } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
          const f = fragments.get(sel.name.value);
          if (f) visit(f.selectionSet);
        } else visit(sel.selectionSet);
      }
    };
    sets.forEach(visit);
    return out;
  }

  function toSchema(
    type: GraphQLOutputType,
    sets: SelectionSetNode[],
    nonNull = false,
  ): JsonSchema {
    if (isNonNullType(type)) return toSchema(type.ofType, sets, true);
    let s: JsonSchema;
    if (isListType(type)) s = { type: 'array', items: toSchema(type.ofType, sets) };
    else if (isScalarType(type)) s = { ...(SCALARS[type.name] ?? {}) };
    else if (isEnumType(type)) s = { type: 'string', enum: type.getValues().map((v) => v.name) };
    else if (isObjectType(type)) {
      const fields = fieldsOf(type, sets);
      s = {
        type: 'object',
        additionalProperties: false,
        required: [...fields.keys()],
        properties: Object.fromEntries(
          [...fields].map(([key, f]) => [key, toSchema(f.type, f.sets)]),
        ),
      };
    } else throw new Error(`unsupported type ${String(type)}`);
    return nonNull ? s : orNull(s);
  }

  let parent = schema.getQueryType() as GraphQLObjectType;
  let sets: SelectionSetNode[] = [operation.selectionSet];
  for (const [i, key] of path.entries()) {
    const field = fieldsOf(parent, sets).get(key);
    if (!field) throw new Error(`no "${key}" in ${parent.name}`);
    if (i === path.length - 1)
      return toSchema(getNamedType(field.type) as GraphQLOutputType, field.sets, true);
    parent = getNamedType(field.type) as GraphQLObjectType;
    sets = field.sets;
  }
  throw new Error('empty path');
}

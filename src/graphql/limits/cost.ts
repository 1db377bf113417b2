import {
  isIntrospectionType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isCompositeType,
  isInputObjectType,
  isEnumType,
  isInterfaceType,
  isListType,
  isObjectType,
  isWrappingType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { checkFirst } from '../pagination/connection';
import {
  DEFAULT_LIST_SIZE,
  NO_HOME,
  ownCost,
  policyOf,
  type Args,
  type HomeSize,
} from '../field-policy';

/**
 * The cost of a query, computed before execution from the operation, its variables and the
 * schema. It estimates work and response size; it is what MAX_QUERY_COST limits and what the
 * rate limit charges.
 *
 * Cost model (every number below is a point):
 * - a scalar or enum field, or a list of them, costs 1 (`__typename` costs 0);
 * - an object field costs 1 plus the cost of its selection;
 * - a list of objects costs 1 plus (items × the cost of its selection), where items is:
 *   - for a connection's `edges`: the connection's `first` (its default when not given), so
 *     cost grows in proportion to `first`;
 *   - otherwise the field's declared `listSize` (see field-policy.ts), else 10; introspection
 *     lists take the schema's own counts (number of types and directives; average fields,
 *     arguments, enum values, input fields per type);
 * - a field that reads more than the transcript adds the `cost` its policy declares (a file
 *   read, a full-tier line, a whole-session check, or a scan of every visible session for a
 *   text filter, which then depends on the home's size);
 * - fields skipped by `@skip(if: true)` / `@include(if: false)` cost 0;
 * - an `__Type.ofType` deeper than the schema's deepest type wrapping costs 1 (it is null:
 *   graphql-js's standard introspection query asks 7 levels for every type reference).
 *
 * Fragments are costed where they are spread, as if written out (the expanded tree), but each
 * fragment is evaluated once per page size and memoized, so deeply nested `...A ...A` spreads
 * cost their full expanded value without exponential work. Sums saturate at 2^53 - 1.
 *
 * The rate limit takes `total` before execution and gives back, once the response is sent, what
 * was not used: list sizes and `first` are upper bounds, and what actually resolved is metered
 * field by field with the same per-field points (`ownCost`).
 *
 * Not graphql-query-complexity: it expands every fragment spread again (exponential in the
 * nesting of `...A ...A`), bounded only by a node cap that fails without a measured value.
 */

export type { HomeSize };

const MAX = Number.MAX_SAFE_INTEGER;
const add = (a: number, b: number): number => Math.min(MAX, a + b);
const mul = (a: number, b: number): number => Math.min(MAX, a * b);

/** Sizes of the introspection lists, from the schema itself (computed once per schema). */
const introspectionSizes = new WeakMap<GraphQLSchema, Record<string, number>>();

/** The deepest wrapping (NonNull, List) of any field, argument or input field type. */
function maxWrapsOf(types: readonly GraphQLNamedType[]): number {
  const depth = (t: GraphQLType): number => (isWrappingType(t) ? 1 + depth(t.ofType) : 0);
  let max = 0;
  for (const t of types) {
    if (isObjectType(t) || isInterfaceType(t)) {
      for (const f of Object.values(t.getFields())) {
        max = Math.max(max, depth(f.type));
        for (const a of f.args) max = Math.max(max, depth(a.type));
      }
    } else if (isInputObjectType(t)) {
      for (const f of Object.values(t.getFields())) max = Math.max(max, depth(f.type));
    }
  }
  return max;
}

function introspectionSizesOf(schema: GraphQLSchema): Record<string, number> {
  const known = introspectionSizes.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  const avg = (counts: number[]): number => {
    const nonEmpty = counts.filter((n) => n > 0);
    return nonEmpty.length ? Math.ceil(nonEmpty.reduce((a, b) => a + b, 0) / nonEmpty.length) : 1;
  };
  const fieldLists = types
    .filter((t) => isObjectType(t) || isInterfaceType(t))
    .map((t) => Object.values(t.getFields()));
  const argLists = [
    ...fieldLists.flat().map((f) => f.args.length),
    ...schema.getDirectives().map((d) => d.args.length),
  ];
  const sizes = {
    '__Schema.types': types.length,
    '__Schema.directives': schema.getDirectives().length,
    '__Type.fields': avg(fieldLists.map((fields) => fields.length)),
    '__Type.inputFields': avg(
      types.filter(isInputObjectType).map((t) => Object.keys(t.getFields()).length),
    ),
    '__Type.enumValues': avg(types.filter(isEnumType).map((t) => t.getValues().length)),
    '__Type.interfaces': avg(types.filter(isObjectType).map((t) => t.getInterfaces().length)),
    '__Type.possibleTypes': 1,
    '__Field.args': avg(argLists),
    '__Directive.args': avg(argLists),
    maxWraps: maxWrapsOf(types),
  };
  introspectionSizes.set(schema, sizes);
  return sizes;
}

export interface CostRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  /** Needed by fields whose work grows with the home (default: an empty home). */
  home?: HomeSize;
}

export interface QueryCost {
  /** The estimate: what MAX_QUERY_COST limits and the rate limit takes before execution. */
  total: number;
  /**
   * The part of `total` that field middleware cannot meter while executing: root fields' own
   * points and introspection. The rest is metered field by field (`ownCost`).
   */
  unmetered: number;
  /** A field's cost depends on the home's size (costed with `home`; see FieldPolicy.readsHome). */
  readsHome?: boolean;
  /** The first connection asked with a `first` outside its range: its BAD_USER_INPUT. */
  badFirst?: GraphQLError;
}

type Pair = [total: number, unmetered: number];
const ZERO: Pair = [0, 0];
const addPair = (a: Pair, b: Pair): Pair => [add(a[0], b[0]), add(a[1], b[1])];

/**
 * The cost of the operation a request runs. Zero when there is none to run or its variables
 * do not coerce (execution refuses those without resolving anything).
 */
export function queryCost({
  schema,
  document,
  operationName,
  variables,
  home = NO_HOME,
}: CostRequest): QueryCost {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { total: 0, unmetered: 0 };
  const coercion = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coercion.errors) return { total: 0, unmetered: 0 };
  const vars = coercion.coerced;
  const sizes = introspectionSizesOf(schema);

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  const memo = new Map<string, Pair>();
  let readsHome = false;
  let badFirst: GraphQLError | undefined;
  const active = new Set<string>();

  const skipped = (node: SelectionNode): boolean => {
    if (!node.directives?.length) return false;
    const skip = getDirectiveValues(GraphQLSkipDirective, node, vars);
    const include = getDirectiveValues(GraphQLIncludeDirective, node, vars);
    return skip?.if === true || include?.if === false;
  };

  /**
   * `page`: items per `edges` list when `type` is a connection; `wraps`: how many `ofType`
   * levels lead here (see `maxWraps`).
   */
  const selectionCost = (
    set: SelectionSetNode,
    type: GraphQLCompositeType,
    page: number,
    wraps = 0,
  ): Pair => {
    let total = ZERO;
    for (const selection of set.selections) {
      if (skipped(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        total = addPair(total, fieldCost(selection, type, page, wraps));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const cond = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
        const inner = cond && isCompositeType(cond) ? cond : type;
        total = addPair(total, selectionCost(selection.selectionSet, inner, page, wraps));
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        const cond = fragment && schema.getType(fragment.typeCondition.name.value);
        if (!fragment || !cond || !isCompositeType(cond) || active.has(name)) continue;
        const key = `${name}\0${page}\0${wraps}`;
        let cost = memo.get(key);
        if (cost === undefined) {
          active.add(name);
          cost = selectionCost(fragment.selectionSet, cond, page, wraps);
          active.delete(name);
          memo.set(key, cost);
        }
        total = addPair(total, cost);
      }
    }
    return total;
  };

  const fieldCost = (
    node: FieldNode,
    parent: GraphQLCompositeType,
    page: number,
    wraps: number,
  ): Pair => {
    const name = node.name.value;
    if (name === '__typename') return ZERO;
    // A type reference's wrapper chain ends within the schema's deepest wrapping: any `ofType`
    // past it is null (graphql-js's standard query asks 7 levels deep).
    const ofType = name === 'ofType' && parent.name === '__Type';
    if (ofType && wraps >= sizes.maxWraps) return [1, 1];
    let field: GraphQLField<unknown, unknown> | undefined;
    if (name === SchemaMetaFieldDef.name) field = SchemaMetaFieldDef;
    else if (name === TypeMetaFieldDef.name) field = TypeMetaFieldDef;
    else if (isObjectType(parent) || isInterfaceType(parent)) field = parent.getFields()[name];
    if (!field) return ZERO; // unknown field: refused by validation
    let args: Args = {};
    try {
      args = getArgumentValues(field, node, vars);
    } catch {
      // Invalid arguments fail execution before the field resolves; cost as given without.
    }
    const coordinate = `${parent.name}.${name}`;
    const policy = policyOf(field);
    if (policy.readsHome?.(args)) readsHome = true;
    const named = getNamedType(field.type);
    // Introspection reads the schema in memory: a name or a flag of a type costs nothing, so the
    // standard introspection query does not grow past the limit as the schema grows.
    const own =
      isIntrospectionType(parent) && !isCompositeType(named) ? 0 : ownCost(name, field, args, home);
    let total: number;
    if (!isCompositeType(named) || !node.selectionSet) {
      total = own;
    } else {
      // A connection: a field with `first` whose type has `edges`.
      const firstArg = field.args.find((a) => a.name === 'first');
      const isConnection = !!firstArg && isObjectType(named) && 'edges' in named.getFields();
      let childPage = 1;
      if (isConnection) {
        const first = args.first ?? firstArg.defaultValue;
        if (typeof first === 'number' && policy.maxFirst !== undefined && !badFirst) {
          try {
            checkFirst(first, policy.maxFirst);
          } catch (error) {
            badFirst = error as GraphQLError;
          }
        }
        childPage =
          typeof first === 'number' && first > 0 ? Math.min(first, policy.maxFirst ?? first) : 1;
      }
      const [child, childUnmetered] = selectionCost(
        node.selectionSet,
        named,
        childPage,
        ofType ? wraps + 1 : 0,
      );
      const items = !isListType(getNullableType(field.type))
        ? 1
        : name === 'edges'
          ? page
          : (policy.listSize ?? sizes[coordinate] ?? DEFAULT_LIST_SIZE);
      total = add(own, mul(items, child));
      if (name.startsWith('__') || parent === root) {
        // Introspection is resolved by graphql-js itself, root fields outside field middleware.
        const unmetered = name.startsWith('__') ? total : add(own, mul(items, childUnmetered));
        return [total, unmetered];
      }
      return [total, mul(items, childUnmetered)];
    }
    return [total, name.startsWith('__') || parent === root ? total : 0];
  };

  const [total, unmetered] = selectionCost(operation.selectionSet, root, 1);
  return {
    total,
    unmetered,
    ...(readsHome ? { readsHome } : {}),
    ...(badFirst ? { badFirst } : {}),
  };
}

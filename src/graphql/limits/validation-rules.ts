import {
  Kind,
  visit,
  GraphQLError,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { QueryLimits } from '../../config/config';
import { ErrorCode } from '../errors';
import { tooComplex, type LimitKind } from './limit-error';

/**
 * Validation rules for the shape of a document, run by Apollo with graphql-js's own rules:
 *
 * - depth: the deepest chain of fields of any operation, fragments expanded (a field at the
 *   root is at depth 1, so `{ sessions { totalCount } }` is 2). Introspection fields count like
 *   any other, except `__Type.ofType`: a chain of type wrappers, at most a few levels in any
 *   real schema, with one object per level (no list), which graphql-js's standard introspection
 *   query nests 9 deep (15 in all, 6 without them). Each fragment's depth is computed once (memoized), so `...A` nesting that would
 *   expand to millions of fields costs no more than the document; a fragment cycle (refused by
 *   graphql-js's NoFragmentCyclesRule) adds nothing here.
 * - aliases: fields written with an alias, counted in the document as written. Multiplying work
 *   through fragments is the cost limit's business (it expands them).
 * - directives: directive usages in the document as written (`@skip`, `@include`, unknown ones).
 * - fields: fields in the document as written, at most MAX_FIELDS.
 *
 * Each reports at most one QUERY_TOO_COMPLEX error per document, with `limit` and `measured`.
 */

export function depthRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const memo = new Map<string, number>();
    const active = new Set<string>();

    const fragmentDepth = (fragment: FragmentDefinitionNode): number => {
      const name = fragment.name.value;
      const known = memo.get(name);
      if (known !== undefined) return known;
      if (active.has(name)) return 0; // a cycle: reported by NoFragmentCyclesRule
      active.add(name);
      const depth = selectionDepth(fragment.selectionSet);
      active.delete(name);
      memo.set(name, depth);
      return depth;
    };

    const selectionDepth = (set: SelectionSetNode | undefined): number => {
      let deepest = 0;
      for (const selection of set?.selections ?? []) {
        let depth = 0;
        if (selection.kind === Kind.FIELD) {
          const own = selection.name.value === 'ofType' ? 0 : 1;
          depth = own + selectionDepth(selection.selectionSet);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          depth = selectionDepth(selection.selectionSet);
        } else {
          const fragment = context.getFragment(selection.name.value);
          depth = fragment ? fragmentDepth(fragment) : 0;
        }
        if (depth > deepest) deepest = depth;
      }
      return deepest;
    };

    return {
      Document(node) {
        let deepest = 0;
        for (const def of node.definitions) {
          if (def.kind === Kind.OPERATION_DEFINITION) {
            deepest = Math.max(deepest, selectionDepth(def.selectionSet));
          }
        }
        if (deepest > maxDepth) context.reportError(tooComplex('depth', maxDepth, deepest));
        return false; // nothing below needs visiting
      },
    };
  };
}

/**
 * A rule that counts nodes of the document as written, when the document is entered: before
 * graphql-js's own rules report (or abort on) what the excess causes, so the limit error is
 * there whatever they do (see `onlyTheLimitError`).
 */
function countRule(
  kind: LimitKind,
  max: number,
  counts: (visitor: { add(): void }) => ASTVisitor,
): ValidationRule {
  return (context) => ({
    Document(node) {
      let count = 0;
      visit(node, counts({ add: () => count++ }));
      if (count > max) context.reportError(tooComplex(kind, max, count));
    },
  });
}

export const aliasesRule = (max: number): ValidationRule =>
  countRule('aliases', max, (c) => ({
    Field(node) {
      if (node.alias) c.add();
    },
  }));

export const directivesRule = (max: number): ValidationRule =>
  countRule('directives', max, (c) => ({ Directive: () => c.add() }));

/**
 * Fields written in the document. Not a setting: graphql-js checks every pair of fields of a
 * selection set for conflicts within a fixed budget, and aborts with a bare "Validation
 * aborted." past it (1,000 `__typename` do); far below that, this names the limit.
 */
export const MAX_FIELDS = 500;
export const fieldsRule = (max: number): ValidationRule =>
  countRule('fields', max, (c) => ({ Field: () => c.add() }));

/**
 * The end of validation (an Apollo `validationDidStart` hook): when a document-shape limit is
 * crossed, that one error is the answer, not the errors the excess also caused (100 `@skip` on
 * one field broke graphql-js's unique-directive rule 99 times) or its abort.
 */
export function onlyTheLimitError(errors?: readonly Error[]): void {
  if (!errors) return;
  const limit = errors.find(
    (e) => e instanceof GraphQLError && e.extensions.code === ErrorCode.QUERY_TOO_COMPLEX,
  );
  // Apollo answers with this very array once the hook returns.
  if (limit) (errors as Error[]).splice(0, errors.length, limit);
}

/**
 * brainql has no mutations: a mutation is the client's mistake, refused at validation (400,
 * BAD_USER_INPUT) with what to send instead, where graphql-js refused it only when executing
 * (200, "Schema is not configured to execute mutation operation.").
 */
export const noMutationsRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation)) return;
    context.reportError(
      new GraphQLError(
        `brainql is read-only and has no ${node.operation}s: send a query, or a subscription ` +
          'over WebSocket or SSE.',
        { nodes: node },
      ),
    );
  },
});

/** The document-shape rules for these limits. */
export function limitRules(limits: QueryLimits): ValidationRule[] {
  return [
    depthRule(limits.maxDepth),
    aliasesRule(limits.maxAliases),
    directivesRule(limits.maxDirectives),
    fieldsRule(MAX_FIELDS),
  ];
}

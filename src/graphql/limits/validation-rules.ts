import {
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { QueryLimits } from '../../config/config';
import { tooComplex } from './limit-error';

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

export function aliasesRule(maxAliases: number): ValidationRule {
  return (context) => {
    let count = 0;
    return {
      Field(node) {
        if (node.alias) count++;
      },
      Document: {
        leave() {
          if (count > maxAliases) context.reportError(tooComplex('aliases', maxAliases, count));
        },
      },
    };
  };
}

export function directivesRule(maxDirectives: number): ValidationRule {
  return (context) => {
    let count = 0;
    return {
      Directive() {
        count++;
      },
      Document: {
        leave() {
          if (count > maxDirectives) {
            context.reportError(tooComplex('directives', maxDirectives, count));
          }
        },
      },
    };
  };
}

/** The document-shape rules for these limits. */
export function limitRules(limits: QueryLimits): ValidationRule[] {
  return [
    depthRule(limits.maxDepth),
    aliasesRule(limits.maxAliases),
    directivesRule(limits.maxDirectives),
  ];
}

/**
 * A bound on the type checker's work per program. TypeScript's control-flow analysis has no
 * cache across queries on straight-line code: the type of `x` at a call walks back over every
 * statement before it in its function, so asking about each of n calls in one long top level
 * costs O(n²) (a 5 MB program took 250 s to its first diagnostics). Each call is charged the
 * statements before it; once the budget is spent the remaining calls get only the checks that
 * need no types (Tout literals, the arity of inline callbacks), and the program is told so.
 */
import ts from 'typescript';

/** Statement steps: about a second of flow analysis; a 5,000-line program fits whole. */
export const TYPE_CHECK_BUDGET = 2_000_000;

export class CheckBudget {
  private spent = 0;
  /** The first call checked without types, for the diagnostic that says so. */
  firstSkipped: ts.Node | undefined;
  typed = 0;
  untyped = 0;

  constructor(private readonly budget = TYPE_CHECK_BUDGET) {}

  /** True when the checker may be asked about `node`; charges it the statements before it. */
  spend(node: ts.Node): boolean {
    const cost = statementsBefore(node) + 1;
    if (this.firstSkipped === undefined && this.spent + cost <= this.budget) {
      this.spent += cost;
      this.typed++;
      return true;
    }
    this.firstSkipped ??= node;
    this.untyped++;
    return false;
  }
}

/**
 * How many statements flow analysis may walk back over from `node`: its statement's index in its
 * block, plus the enclosing blocks' indices, up to the function (or file) holding it.
 */
export function statementsBefore(node: ts.Node): number {
  let count = 0;
  for (let n: ts.Node = node; n.parent; n = n.parent) {
    const parent = n.parent;
    if (ts.isFunctionLike(parent) || ts.isClassStaticBlockDeclaration(parent)) break;
    if (ts.isBlock(parent) || ts.isSourceFile(parent) || ts.isModuleBlock(parent) || ts.isCaseClause(parent) || ts.isDefaultClause(parent)) {
      count += indexOf(parent.statements, n);
    }
  }
  return count;
}

/** Index of `node` among sorted statements (a binary search by position). */
function indexOf(statements: ts.NodeArray<ts.Statement>, node: ts.Node): number {
  let lo = 0;
  let hi = statements.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (statements[mid]!.pos <= node.pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

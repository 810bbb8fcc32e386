import { flatMap } from '../model/arrays.js';
import { Grouping, Logical, type Expr } from './parse.js';

/**
 * A condition as an OR of ANDs of its atoms (disjunctive normal form): `a && (b || c)` is `[[a, b], [a, c]]`.
 * Anything that is not `&&`, `||` or parentheses is an atom. Null when it would take more than `max` ways
 * (the expansion is exponential in the worst case, and conditions are read from hostile files).
 */
export function dnf(expr: Expr, max: number): Expr[][] | null {
  if (expr instanceof Grouping) return dnf(expr.group, max);
  if (expr instanceof Logical && expr.operator.lexeme === '||') {
    const result: Expr[][] = [];
    for (const arg of expr.args) {
      const part = dnf(arg, max);
      if (part === null || result.length + part.length > max) return null;
      result.push(...part);
    }
    return result;
  }
  if (expr instanceof Logical && expr.operator.lexeme === '&&') {
    let result: Expr[][] = [[]];
    for (const arg of expr.args) {
      const part = dnf(arg, max);
      if (part === null || result.length * part.length > max) return null;
      result = flatMap(result, (x) => part.map((y) => [...x, ...y]));
    }
    return result;
  }
  return [[expr]];
}

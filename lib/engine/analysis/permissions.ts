import { keyText, type YNode, type YScalar } from '../yaml/model.js';

/** A `<scope>: write` entry of a `permissions:` mapping. */
export interface WriteScope {
  scope: string;
  key: YScalar;
  value: YScalar;
}

/** What a `permissions:` value grants, as far as the rules need to know. */
export type Permissions =
  | { kind: 'read-all' | 'write-all'; node: YScalar }
  /** A mapping (possibly empty, `{}`); `writes` lists its `write` scopes in file order. */
  | { kind: 'scopes'; writes: WriteScope[] }
  /** An expression, an empty value or anything GitHub would reject: the rules make no claim about it. */
  | { kind: 'other' };

/** Reads a workflow- or job-level `permissions:` value. */
export function readPermissions(node: YNode): Permissions {
  if (node.kind === 'scalar') {
    const text = typeof node.value === 'string' ? node.value.trim().toLowerCase() : null;
    if (text === 'read-all' || text === 'write-all') return { kind: text, node };
    return { kind: 'other' };
  }
  if (node.kind === 'seq') return { kind: 'other' };
  const writes: WriteScope[] = [];
  for (const pair of node.pairs) {
    const value = pair.value;
    if (value.kind === 'scalar' && typeof value.value === 'string' && value.value.trim().toLowerCase() === 'write') {
      writes.push({ scope: keyText(pair.key).toLowerCase(), key: pair.key, value });
    }
  }
  return { kind: 'scopes', writes };
}

/**
 * Least-privilege `permissions:` for a job, computed from what it does: the actions it uses (the table in
 * data/permissions.ts), `gh` and `git push` in its scripts, OIDC token requests, and the jobs of a local
 * reusable workflow it calls. What cannot be known (an action outside the table, `gh api`, a remote
 * reusable workflow) is listed in `unknown`: a block computed with unknowns is a guess.
 */
import { ACTION_PERMISSIONS, GH_COMMANDS, actionPermissions, conditionHolds, type Access, type Scope, type Scopes } from '../data/permissions.js';
import { readPermissions } from '../analysis/permissions.js';
import type { RepositoryModel } from '../model/repository.js';
import { normalizeLocalPath } from '../model/repository.js';
import { triggerNames, type Job, type Step } from '../model/workflow.js';
import { getText, keyText, scalarText, type YNode } from '../yaml/model.js';

export interface Needs {
  scopes: Scopes;
  /** Why each write scope is needed (the first action or command that needs it), for the block's comments. */
  why: Why;
  /** What the computation could not see into, one short phrase each. */
  unknown: string[];
}

export type Why = Partial<Record<Scope, string>>;

export function grant(scopes: Scopes, scope: Scope, access: Access, why?: Why, reason?: string): void {
  if (scopes[scope] === 'write') return;
  scopes[scope] = access;
  if (access === 'write' && why !== undefined && reason !== undefined) why[scope] ??= reason;
}

function merge(into: Needs, from: Scopes, reason: string, fromWhy?: Why): void {
  for (const [scope, access] of Object.entries(from) as [Scope, Access][]) grant(into.scopes, scope, access, into.why, fromWhy?.[scope] ?? reason);
}

const GIT_PUSH = /\bgit\s+(?:-[Cc]\s+\S+\s+)*push\b/;
const GH = /(?:^|[\s;&|(`$])gh\s+([a-z-]+)(?:\s+([a-z-]+))?/g;
const OIDC = /ACTIONS_ID_TOKEN_REQUEST|\bcosign\s+(?:sign|attest)\b|\bnpm\s+publish\b[^\n]*--provenance/;
const TOKEN_API = /(GITHUB_TOKEN|GH_TOKEN|github\.token)[\s\S]*\b(curl|wget|Invoke-RestMethod|Invoke-WebRequest)\b|\b(curl|wget|Invoke-RestMethod|Invoke-WebRequest)\b[\s\S]*(GITHUB_TOKEN|GH_TOKEN|github\.token)/;

function scriptNeeds(script: string, needs: Needs): void {
  if (GIT_PUSH.test(script)) grant(needs.scopes, 'contents', 'write', needs.why, '`git push`');
  if (OIDC.test(script)) grant(needs.scopes, 'id-token', 'write', needs.why, 'an OIDC token request');
  for (const match of script.matchAll(GH)) {
    // `gh api` needs whatever the call needs: unknown, whatever follows it.
    const command = match[1] === 'api' ? 'api' : `${match[1] ?? ''} ${match[2] ?? ''}`.trim();
    const scopes = GH_COMMANDS[command];
    if (scopes === undefined) needs.unknown.push(`\`gh ${command}\` in a script`);
    else merge(needs, scopes, `\`gh ${command}\``);
  }
  if (TOKEN_API.test(script)) needs.unknown.push('a script calls an API with the token');
}

function stepNeeds(step: Step, repository: RepositoryModel, needs: Needs, depth: number): void {
  const script = step.run?.value;
  if (typeof script === 'string') scriptNeeds(script, needs);
  const ref = step.usesRef;
  if (ref === undefined) return;
  if (ref.kind === 'docker') return;
  if (ref.kind === 'local') {
    const action = repository.localAction(step);
    if (action?.using === 'composite' && depth < 4) for (const inner of action.steps) stepNeeds(inner, repository, needs, depth + 1);
    else needs.unknown.push(`local action ${ref.path}`);
    return;
  }
  if (ref.kind !== 'repository') return;
  const name = `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}`.toLowerCase();
  const entry = actionPermissions(name);
  if (entry === undefined) {
    needs.unknown.push(name);
    return;
  }
  merge(needs, entry.scopes, name);
  for (const condition of entry.when ?? []) {
    if (conditionHolds(condition, getText(step.with, condition.input), step.job === null ? null : triggerNames(step.job.workflow), ref.ref)) merge(needs, condition.scopes, name);
  }
}

/** Scopes a `permissions:` value grants, or null when it is not a readable mapping. */
export function declaredScopes(node: YNode): Scopes | null {
  const permissions = readPermissions(node);
  if (permissions.kind !== 'scopes' || node.kind !== 'map') return null;
  const scopes: Scopes = {};
  for (const pair of node.pairs) {
    const access = scalarText(pair.value)?.trim().toLowerCase();
    if (access === 'read' || access === 'write') grant(scopes, keyText(pair.key).toLowerCase() as Scope, access);
  }
  return scopes;
}

/** What a job needs of its GITHUB_TOKEN. `contents: read` is always included (checkout, private repositories). */
export function jobNeeds(job: Job, repository: RepositoryModel, depth = 0): Needs {
  const needs: Needs = { scopes: { contents: 'read' }, why: {}, unknown: [] };
  const ref = job.usesRef;
  if (ref !== undefined) {
    const callee = ref.kind === 'local' ? repository.workflows.find((w) => w.file.path === normalizeLocalPath(ref.path)) : undefined;
    if (callee === undefined || depth > 3) {
      needs.unknown.push(`reusable workflow ${scalarText(job.uses) ?? ''}`);
      return needs;
    }
    for (const inner of callee.jobs) {
      const declared = inner.permissions === undefined ? null : declaredScopes(inner.permissions);
      const innerNeeds: Needs = declared !== null ? { scopes: declared, why: {}, unknown: [] } : jobNeeds(inner, repository, depth + 1);
      merge(needs, innerNeeds.scopes, `reusable workflow ${scalarText(job.uses) ?? ''}`, innerNeeds.why);
      needs.unknown.push(...innerNeeds.unknown);
    }
    return needs;
  }
  for (const step of job.steps) stepNeeds(step, repository, needs, 0);
  return needs;
}

/** The lower of two grants of each scope: what a job keeps when narrowed to `cap`. */
export function capScopes(scopes: Scopes, cap: Scopes): Scopes {
  const out: Scopes = {};
  for (const [scope, access] of Object.entries(scopes) as [Scope, Access][]) {
    const limit = cap[scope];
    if (limit === undefined) continue;
    out[scope] = access === 'write' && limit === 'write' ? 'write' : 'read';
  }
  return out;
}

/**
 * `contents: read` ... lines in scope order, or null for `{}`. A scope keeps the comment the user wrote on
 * its line where it came from (`comments`); otherwise a write scope carries a comment naming what needs it
 * (`issues: write  # gh issue comment`): reviewers see why, and undocumented-permissions is satisfied.
 */
export function scopeLines(scopes: Scopes, why: Why = {}, comments: Readonly<Partial<Record<string, string>>> = {}): string[] | null {
  const lines = (Object.keys(scopes) as Scope[]).sort().map((scope) => {
    const access = scopes[scope] ?? 'read';
    const own = comments[scope];
    if (own !== undefined) return `${scope}: ${access}  # ${own}`;
    const reason = access === 'write' ? why[scope] : undefined;
    return reason === undefined ? `${scope}: ${access}` : `${scope}: ${access}  # needed by ${reason.replace(/[\r\n]/g, ' ')}`;
  });
  return lines.length === 0 ? null : lines;
}

/** The comment at the end of each scope's line in a `permissions:` mapping (`contents: write # releases`). */
export function scopeComments(text: string, node: YNode): Partial<Record<string, string>> {
  const comments: Partial<Record<string, string>> = {};
  if (node.kind !== 'map') return comments;
  for (const pair of node.pairs) {
    const end = text.indexOf('\n', pair.value.end);
    const rest = text.slice(pair.value.end, end === -1 ? text.length : end);
    const comment = /^\s+#\s?(.*?)\s*$/.exec(rest)?.[1];
    if (comment !== undefined && comment !== '') comments[keyText(pair.key).toLowerCase()] = comment;
  }
  return comments;
}

export const KNOWN_ACTIONS = Object.keys(ACTION_PERMISSIONS);

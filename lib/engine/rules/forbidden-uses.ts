import type { UsesRef } from '../model/uses.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { ForbiddenUsesOptions } from '../rule-options.js';
import type { YScalar } from '../yaml/model.js';

/**
 * One `uses:` pattern of a policy, compiled. `docker://<glob>` matches a `docker://` image; otherwise
 * `<owner>[/<repo>[/<path>]][@<ref>]` matches repository actions and reusable workflows. In names `*` is any
 * characters but `/` and `**` any characters, compared case-insensitively (GitHub's names are); a pattern
 * also covers everything under it (`owner` and `owner/*` every action of the owner, `owner/repo` its
 * sub-path actions and workflows; `docker://alpine` every tag and digest of the image). `@<ref>` narrows to
 * refs matching its glob (`*` any characters), compared as written.
 */
export interface UsesPattern {
  text: string;
  matches(ref: UsesRef): boolean;
}

type GlobToken = { kind: 'char'; ch: string } | { kind: 'star'; slash: boolean };

/**
 * A glob compiled to a matcher that runs in O(text x pattern) steps whatever the input: no regular
 * expression, whose backtracking a pattern such as `a*a*a*a*b` turns exponential on a long action name.
 * `*` is any characters (but `/` when `starCrossesSlash` is false), `**` any characters. `suffix` lists the
 * characters after which the rest of the text may be anything (`/` for a sub-path, `:@/` for an image's tag).
 */
function globMatcher(glob: string, options: { starCrossesSlash: boolean; ignoreCase: boolean; suffix?: string }): (text: string) => boolean {
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  const tokens: GlobToken[] = [];
  for (const part of fold(glob).split(/(\*\*|\*)/)) {
    if (part === '**') tokens.push({ kind: 'star', slash: true });
    else if (part === '*') tokens.push({ kind: 'star', slash: options.starCrossesSlash });
    else for (const ch of part) tokens.push({ kind: 'char', ch });
  }
  const m = tokens.length;
  // States: how many tokens the text read so far has matched; a star may match nothing.
  const close = (states: Uint8Array) => {
    for (let j = 0; j < m; j++) if (states[j] === 1 && tokens[j]?.kind === 'star') states[j + 1] = 1;
  };
  return (input) => {
    const text = fold(input);
    let states = new Uint8Array(m + 1);
    states[0] = 1;
    close(states);
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] ?? '';
      if (states[m] === 1 && options.suffix?.includes(ch) === true) return true;
      const next = new Uint8Array(m + 1);
      for (let j = 0; j < m; j++) {
        const token = tokens[j];
        if (states[j] !== 1 || token === undefined) continue;
        if (token.kind === 'char') {
          if (token.ch === ch) next[j + 1] = 1;
        } else if (token.slash || ch !== '/') {
          next[j] = 1;
        }
      }
      close(next);
      if (!next.includes(1)) return false;
      states = next;
    }
    return states[m] === 1;
  };
}

export function compileUsesPattern(text: string): UsesPattern {
  if (text.toLowerCase().startsWith('docker://')) {
    const image = globMatcher(text.slice('docker://'.length), { starCrossesSlash: true, ignoreCase: true, suffix: ':@/' });
    return { text, matches: (ref) => ref.kind === 'docker' && image(ref.image) };
  }
  const at = text.indexOf('@');
  const name = at === -1 ? text : text.slice(0, at);
  const refGlob = at === -1 ? null : globMatcher(text.slice(at + 1), { starCrossesSlash: true, ignoreCase: false });
  const target = globMatcher(name, { starCrossesSlash: false, ignoreCase: true, suffix: '/' });
  return {
    text,
    matches: (ref) => ref.kind === 'repository' && target(`${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}`) && (refGlob === null || refGlob(ref.ref)),
  };
}

/** What the policy says of one `uses:`: null when it is allowed, else why it is not. */
export type Verdict = { pattern: string | null } | null;

export function judge(ref: UsesRef, allow: readonly UsesPattern[] | null, deny: readonly UsesPattern[]): Verdict {
  // The repository's own actions (`./path`, `$/path`) and references the engine cannot read are outside any policy.
  if (ref.kind !== 'repository' && ref.kind !== 'docker') return null;
  if (allow !== null) return allow.some((p) => p.matches(ref)) ? null : { pattern: null };
  const denied = deny.find((p) => p.matches(ref));
  return denied === undefined ? null : { pattern: denied.text };
}

export default defineWorkflowRule({
  options: ForbiddenUsesOptions,
  meta: {
    id: 'forbidden-uses',
    category: 'CICD-SEC-3',
    title: "Action not allowed by the team's uses policy",
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      "A step `uses:` an action, a job calls a reusable workflow, or a step runs a `docker://` image that the team's own policy (the rule's `allow` or `deny` list of owners, repositories and patterns such as `actions/*` or `docker://*`) does not allow. Nothing is forbidden until a policy is set.",
    recommendation:
      'Replace the action with one the policy allows (or an inline script), or, if the team accepts it, add it to the policy in `.chainbreaker.yml` or the rule settings.',
  },
  create: (context) => {
    const options = context.options as ForbiddenUsesOptions;
    const allow = options.allow === undefined ? null : options.allow.map(compileUsesPattern);
    const deny = (options.deny ?? []).map(compileUsesPattern);
    // No policy, no findings: the rule never guesses what a team forbids.
    if (allow === null && deny.length === 0) return {};
    return {
      job(job) {
        if (job.uses !== undefined && job.usesRef !== undefined) check(context, job.uses, job.usesRef, allow, deny);
      },
      step(step) {
        if (step.uses !== undefined && step.usesRef !== undefined) check(context, step.uses, step.usesRef, allow, deny);
      },
    };
  },
});

function check(context: WorkflowRuleContext, node: YScalar, ref: UsesRef, allow: readonly UsesPattern[] | null, deny: readonly UsesPattern[]): void {
  const verdict = judge(ref, allow, deny);
  if (verdict === null) return;
  const value = String(node.value).trim();
  const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
  context.report({
    node,
    message:
      verdict.pattern === null
        ? `\`${shown}\` is not on the team's allow-list of actions (forbidden-uses \`allow\`), so the policy forbids it.`
        : `\`${shown}\` matches \`${verdict.pattern}\` on the team's deny-list of actions (forbidden-uses \`deny\`).`,
  });
}

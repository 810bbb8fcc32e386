import type { Job, Step } from '../model/workflow.js';
import { logicalLines } from '../shell.js';
import { getText, type YNode, type YScalar } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

/**
 * A privileged job that hands a pull request's head to another repository's CI: a `repository_dispatch` or
 * `workflow_dispatch` sent (with a token that can write there) to another repository, with the head commit,
 * branch, pull request number or head repository in the payload or the ref. That repository's workflow then
 * checks out and runs the fork's code with its own secrets, on this job's word: the pull request's author
 * reaches that CI without anyone of that repository approving anything.
 */
export interface PrHeadDispatch {
  step: Step;
  /** The node to report: the `uses:` of an action, or the `run:` script. */
  node: YScalar;
  /** Value offset of the dispatching command in a `run:` script. */
  scriptOffset?: number;
  /** The repository dispatched to, as written (`acme/integration-tests`, or `another repository` when computed). */
  target: string;
  /** How: `peter-evans/repository-dispatch`, `gh api .../dispatches`, ... */
  how: string;
  /** The pull request data handed over, as written (`github.event.pull_request.head.sha`). */
  head: string;
  /** True when only the head commit the event names is handed over (what an approval of the event saw). */
  pinned: boolean;
}

/** Actions that send a dispatch, with the input naming the target repository (absent: this repository). */
const DISPATCH_ACTIONS: Record<string, { repo: (step: Step) => string | null }> = {
  'peter-evans/repository-dispatch': { repo: (s) => getText(s.with, 'repository') },
  'benc-uk/workflow-dispatch': { repo: (s) => getText(s.with, 'repo') },
  'aurelien-baudet/workflow-dispatch': { repo: (s) => getText(s.with, 'repo') },
  'convictional/trigger-workflow-and-wait': { repo: (s) => joinRepo(getText(s.with, 'owner'), getText(s.with, 'repo')) },
  'the-actions-org/workflow-dispatch': { repo: (s) => getText(s.with, 'repo') },
  'lasith-kg/dispatch-workflow': { repo: (s) => joinRepo(getText(s.with, 'owner'), getText(s.with, 'repo')) },
};

function joinRepo(owner: string | null, repo: string | null): string | null {
  if (repo === null) return null;
  return owner === null || repo.includes('/') ? repo : `${owner}/${repo}`;
}

/** A pull request's head in the text of a step: its commit, branch, number or repository. */
const HEAD =
  /\b(?:github\.event\.pull_request\.head\.(?:sha|ref|repo\.(?:full_name|clone_url|html_url|name))|github\.head_ref|github\.event\.pull_request\.number|github\.event\.number|github\.event\.issue\.number|github\.event\.workflow_run\.head_(?:sha|branch)|github\.event\.workflow_run\.pull_requests|context\.payload\.pull_request\.head\.(?:sha|ref)|context\.payload\.pull_request\.number|context\.issue\.number|headRefOid|headRefName|GITHUB_HEAD_REF)\b|refs\/pull\//g;
/** Only the commit the event names. */
const PINNED = /^(?:github\.event\.pull_request\.head\.sha|github\.event\.workflow_run\.head_sha|context\.payload\.pull_request\.head\.sha)$/;
/** This repository, however it is spelt. */
const SELF = /^\s*(?:\$\{\{\s*github\.repository\s*\}\}|\$\{?GITHUB_REPOSITORY\}?|\$\{\{\s*github\.event\.repository\.full_name\s*\}\})\s*$/;
/** A dispatch sent from a script: the REST paths and the CLI. */
const SCRIPT_DISPATCH = /repos\/([^\s'"`/]+\/[^\s'"`/]+)\/(?:actions\/workflows\/[^\s'"`/]+\/)?dispatches\b|\bgh\s+workflow\s+run\b[^\n]*?(?:-R|--repo)[=\s]+["']?([^\s"']+)/g;

/** Every scalar text of a node (bounded). */
function texts(node: YNode | undefined, into: string[] = []): string[] {
  if (node === undefined || into.length >= 200) return into;
  if (node.kind === 'scalar') {
    if (typeof node.value === 'string') into.push(node.value);
  } else if (node.kind === 'seq') for (const item of node.items) texts(item, into);
  else for (const pair of node.pairs) texts(pair.value, into);
  return into;
}

/** The pull request data a step's text (and the steps whose outputs it reads) carries. */
function headData(step: Step, job: Job): string[] {
  const own = texts(step.node).join('\n');
  const producers = flatMap([...own.matchAll(/\bsteps\.([\w-]+)\.outputs\b/g)], (m) => job.steps.filter((s) => s.id === m[1] && s.index < step.index));
  const all = [own, ...producers.map((p) => texts(p.node).join('\n'))].join('\n');
  return [...new Set([...all.matchAll(HEAD)].map((m) => m[0]))];
}

function isSelf(target: string, names: ReadonlySet<string>): boolean {
  return SELF.test(target) || names.has(target.trim().toLowerCase());
}

/** The dispatches of a job's steps that hand a pull request's head to another repository. */
export function prHeadDispatches(job: Job, names: ReadonlySet<string>): PrHeadDispatch[] {
  const found: PrHeadDispatch[] = [];
  for (const step of job.steps) {
    const ref = step.usesRef;
    const targets: { target: string; how: string; node: YScalar; scriptOffset?: number }[] = [];
    if (ref?.kind === 'repository' && step.uses !== undefined) {
      const known = DISPATCH_ACTIONS[ref.slug];
      if (known !== undefined) {
        const repo = known.repo(step);
        if (repo !== null && !isSelf(repo, names)) targets.push({ target: repo.trim(), how: ref.slug, node: step.uses });
      } else if (ref.slug === 'actions/github-script') {
        const script = getText(step.with, 'script') ?? '';
        if (/\b(createDispatchEvent|createWorkflowDispatch)\b|\/dispatches\b/.test(script) && !/\.\.\.\s*context\.repo\b|\bcontext\.repo\.(owner|repo)\b/.test(script)) {
          const repo = /\brepo\s*:\s*['"`]([^'"`]+)['"`]/.exec(script)?.[1];
          const owner = /\bowner\s*:\s*['"`]([^'"`]+)['"`]/.exec(script)?.[1];
          targets.push({ target: joinRepo(owner ?? null, repo ?? null) ?? 'another repository', how: 'actions/github-script', node: step.uses });
        }
      }
    } else if (typeof step.run?.value === 'string' && /dispatches|gh\s+workflow\s+run/.test(step.run.value)) {
      for (const line of logicalLines(step.run.value)) {
        for (const m of line.text.matchAll(SCRIPT_DISPATCH)) {
          const repo = m[1] ?? m[2];
          if (repo === undefined || isSelf(repo, names) || /github\.repository\b|GITHUB_REPOSITORY/.test(repo)) continue;
          targets.push({ target: repo, how: m[1] !== undefined ? `\`${m[0].slice(0, 80)}\`` : '`gh workflow run`', node: step.run, scriptOffset: line.offset });
        }
      }
    }
    if (targets.length === 0) continue;
    const head = headData(step, job);
    if (head.length === 0) continue;
    const first = targets[0]!;
    found.push({ step, ...first, head: head[0]!, pinned: head.every((h) => PINNED.test(h)) });
    if (found.length >= 20) break;
  }
  return found;
}

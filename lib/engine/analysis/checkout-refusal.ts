/*
 * `actions/checkout` refuses a fork's pull request on the privileged events. Since v7.0.0 (2026-06-17), and in the
 * backports v4.4.0, v5.1.0 and v6.1.0 (2026-07-16), which the floating tags `v4` to `v7` name, its step fails when a
 * `pull_request_target` run, or a `workflow_run` run following a `pull_request*` run, asks for a fork's pull request:
 * a `repository:` equal to the pull request's head repository, a `ref:` of the form `refs/pull/<n>/head` or `/merge`,
 * or a commit equal to the head (or merge) commit of the payload; unless the step sets `allow-unsafe-pr-checkout:
 * true`. The default checkout (this repository, no `ref:`) is not checked. A pull request from a branch of the
 * repository itself is still checked out. Source: `src/unsafe-pr-checkout-helper.ts` and `src/input-helper.ts` of
 * https://github.com/actions/checkout, its `action.yml` (`allow-unsafe-pr-checkout`, default false) and CHANGELOG.
 */
import type { Step } from '../model/workflow.js';
import { getText } from '../yaml/model.js';

/** The events on which the check runs. */
export const REFUSING_EVENTS: ReadonlySet<string> = new Set(['pull_request_target', 'workflow_run']);

/** The commits of the releases that refuse (v4.4.0, v5.1.0, v6.1.0, v7.0.0, v7.0.1), for steps pinned by SHA. */
const REFUSING_COMMITS: ReadonlySet<string> = new Set([
  '11d5960a326750d5838078e36cf38b85af677262',
  'fbc6f3992d24b796d5a048ff273f7fcc4a7b6c09',
  'd23441a48e516b6c34aea4fa41551a30e30af803',
  '9c091bb21b7c1c1d1991bb908d89e4e9dddfe3e0',
  '3d3c42e5aac5ba805825da76410c181273ba90b1',
]);

/** The first release of each major version that refuses. */
const FIRST_REFUSING: Readonly<Record<number, readonly [number, number]>> = { 4: [4, 0], 5: [1, 0], 6: [1, 0] };

/**
 * True when `ref` (what follows `actions/checkout@`) names a release that refuses: a floating major tag `v4` to `v7`
 * (and later majors), an exact version at or after the first refusing release of its major, the default branch
 * (`main`), or one of those releases' commits. Any other ref (older versions, other branches, unknown commits): false.
 */
export function refusingVersion(ref: string): boolean {
  const text = ref.trim().toLowerCase();
  if (REFUSING_COMMITS.has(text) || text === 'main') return true;
  const m = /^v(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(text);
  if (m === null) return false;
  const major = Number(m[1]);
  if (m[2] === undefined) return major >= 4;
  if (major >= 7) return true;
  const first = FIRST_REFUSING[major];
  if (first === undefined) return false;
  const minor = Number(m[2]);
  const patch = Number(m[3] ?? 0);
  return minor > first[0] || (minor === first[0] && patch >= first[1]);
}

/** What a `ref:` or `repository:` value reads that the check compares with a fork's pull request. */
const HEAD_REPOSITORY = /\b(?:pull_request\.head\.repo\.full_name|workflow_run\.head_repository\.full_name)\b/;
const HEAD_COMMIT = /\b(?:pull_request\.head\.sha|pull_request\.merge_commit_sha|workflow_run\.head_sha|workflow_run\.head_commit\.id)\b/;
const PULL_REF = /^\s*refs\/pull\/(?:\$\{\{[^}]*\}\}|\d+)\/(?:head|merge)\s*$/;

/**
 * True when `step` is an `actions/checkout` step that refuses a fork's pull request on `pull_request_target` and
 * `workflow_run`: a refusing version (`refusingVersion`), no `allow-unsafe-pr-checkout` that may be true (a literal
 * false, or none), and a `repository:` or `ref:` that names the pull request's head as the check compares it (the head
 * repository, `refs/pull/<n>/head|merge`, the head or merge commit of the payload), read from the text as written. A
 * checkout that names the head some other way (a step's output, a branch name) is not counted: the check may not
 * recognise it.
 */
export function refusesForkCheckout(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || ref.slug !== 'actions/checkout' || ref.path !== '' || !refusingVersion(ref.ref)) return false;
  if (mayAllow(step)) return false;
  const repository = getText(step.with, 'repository') ?? '';
  const wanted = getText(step.with, 'ref') ?? '';
  return HEAD_REPOSITORY.test(repository) || PULL_REF.test(wanted) || HEAD_COMMIT.test(wanted);
}

/** True when the step's `allow-unsafe-pr-checkout` may be true: given, and not a literal false. */
function mayAllow(step: Step): boolean {
  const map = step.with;
  if (map?.kind !== 'map') return false;
  const pair = map.pairs.find((p) => String(p.key.value).toLowerCase() === 'allow-unsafe-pr-checkout');
  if (pair === undefined) return false;
  const value = pair.value.kind === 'scalar' ? pair.value.value : undefined;
  if (value === false || value === null) return false;
  return !(typeof value === 'string' && (value.trim().toLowerCase() === 'false' || value.trim() === ''));
}

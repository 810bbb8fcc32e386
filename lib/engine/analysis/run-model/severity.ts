/**
 * The severity policy, written once (docs/severity.md explains it; the rule docs link there). A finding is
 * a claim that someone can do harm; its severity follows from three facts about the job run:
 *
 * (a) reach: someone outside the repository can start it or feed it, without a maintainer having approved the
 *     code that runs (`anyone`, or a label that stays when new commits are pushed);
 * (b) execution: their content executes, or steers a sink that executes or publishes;
 * (c) holdings: the job holds something worth taking (a write scope that hands over the repository, releases
 *     or packages; a stored secret; OIDC; a self-hosted machine; a publish).
 *
 * HIGH needs all three. Without (c): MEDIUM at most, and a fork's read-only `pull_request` run is LOW (it only
 * hurts the attacker's own run). A maintainer's approval per run, or an environment of unknown strength, in
 * the way: MEDIUM at most (the approved code can still move before it runs). Without (a) or (b): LOW.
 */
import type { Severity } from '../../types.js';
import type { Reach } from './reach.js';

export interface Claim {
  reach: Reach;
  /** (b): the outsider's content executes (or steers a sink that executes or publishes). */
  executes: boolean;
  /** (c): what the job holds that is worth taking on its privileged runs, in words (`valuables`); empty when nothing. */
  holds: readonly string[];
  /** (c) on a fork's `pull_request` run (read-only token, no secrets): the machine, if self-hosted. */
  forkHolds?: readonly string[];
  /** The words when `holds` is empty (the run model's `nothingHeld`); "no write scope, secret or OIDC token" without. */
  nothingHeld?: string;
  /**
   * For approvals: the code that runs can change after the approval (a branch or `refs/pull/*` resolved when
   * the job runs, not the approved commit). MEDIUM instead of LOW.
   */
  raceAfterApproval?: boolean;
}

/**
 * Whether a maintainer's approval in the way binds the code that runs, as far as who can start the run goes: the
 * reach is an approval that the pull request's code cannot move after. Not for `approvalMoves` (a label check
 * that reads the labels the pull request has, which stay while new commits are pushed and which any later label
 * event reuses). Whether the code that runs is then the approved commit (not a branch resolved at run time) is
 * the claim's `raceAfterApproval`.
 */
export function approvalBindsCode(reach: Reach): boolean {
  return reach.level === 'approval' && reach.approvalMoves !== true;
}

/** What a job holds, in the words a claim needs (the run model's `JobRun`). */
export interface HeldWords {
  valuables: readonly string[];
  forkValuables: readonly string[];
  nothingHeld: string;
}

/**
 * The claim about a job run: who can start it or feed it (`reach`), whether the outsider's content executes, and
 * what the job holds on its privileged runs and on a fork's `pull_request` run (the run model's words for it).
 */
export function jobClaim(run: HeldWords, reach: Reach, executes: boolean, raceAfterApproval?: boolean): Claim {
  return { reach, executes, holds: run.valuables, forkHolds: run.forkValuables, nothingHeld: run.nothingHeld, raceAfterApproval };
}

export function severityOf(claim: Claim): Severity {
  const { reach, executes, holds } = claim;
  if (!executes) return 'LOW';
  // A fork's read-only `pull_request` run matters only for what the machine holds.
  const fork: Severity = reach.forkPullRequest && (claim.forkHolds ?? []).length > 0 ? 'HIGH' : 'LOW';
  let privileged: Severity;
  switch (reach.level) {
    case 'anyone':
    case 'sticky-label':
      privileged = holds.length > 0 ? 'HIGH' : 'MEDIUM';
      break;
    case 'unreviewed-environment':
      privileged = 'MEDIUM';
      break;
    case 'approval':
      privileged = (claim.raceAfterApproval === true || !approvalBindsCode(reach)) && holds.length > 0 ? 'MEDIUM' : 'LOW';
      break;
    default:
      privileged = 'LOW';
  }
  return fork === 'HIGH' ? 'HIGH' : privileged;
}

/** The three facts in words, for a finding's description: `; who: ...; runs: ...; holds: ...`. */
export function describeClaim(claim: Claim): string {
  return `${whoText(claim.reach)}; ${holdsText(claim)}`;
}

/** What the job holds, in words: the second half of `describeClaim`. */
export function holdsText(claim: Claim): string {
  return claim.holds.length > 0 ? `the job holds ${claim.holds.join(', ')}` : (claim.nothingHeld ?? 'the job holds no write scope, secret or OIDC token');
}

export function whoText(reach: Reach): string {
  // A condition written over several lines (a `>` block) is quoted on one.
  const gates = reach.gates.length > 0 ? ` (${reach.gates.map((g) => g.replace(/\s*\n\s*/g, ' ')).join(' / ')})` : '';
  switch (reach.level) {
    case 'anyone':
      if (reach.pickedOn !== undefined) return `a \`${reach.pickedOn}\` run reaches it with no approval and picks whatever run is there: anyone with a GitHub account only has to get their pull request's run picked`;
      return `anyone with a GitHub account can start it through \`${reach.event ?? 'the trigger'}\`${reach.noGate === undefined ? '' : ` (${reach.noGate})`}`;
    case 'sticky-label':
      return `an outsider can start it through \`${reach.event ?? 'the trigger'}\` once a maintainer has labelled their pull request${gates}, and every commit they push afterwards runs under that label`;
    case 'unreviewed-environment':
      if (reach.unreadCheck === true) return `an outsider can start it through \`${reach.event ?? 'the trigger'}\` unless a check the scan cannot read stops them${gates}: it may keep outsiders out, which could not be verified`;
      return `an outsider can start it through \`${reach.event ?? 'the trigger'}\` unless the environment${gates} has required reviewers, which could not be checked without a settings snapshot`;
    case 'approval':
      if (reach.labelRemoved !== undefined) {
        const { where, whenRunEnds } = reach.labelRemoved;
        // A removal that waits for the run's end (an `always()` step after the code, a later job) leaves the label on while the run lasts.
        if (whenRunEnds) {
          return reach.labelRace === true
            ? `a maintainer's label approves one run${gates}, and the workflow removes that label in every run, but only when the run ends (${where}), so each new push after it needs a new label (no sticky label); the label stays on until then and the workflow also runs on new commits, so a commit pushed during the run (or a label event then, a maintainer's or a labelling bot's) runs under it: the race of any approval, as long as the run`
            : `a maintainer's label approves each run${gates}, and the workflow removes that label in every run, but only when the run ends (${where}): the label stays on until then, so a label event during the run (a maintainer's or a labelling bot's) runs the commits pushed since under it`;
        }
        return reach.labelRace === true
          ? `a maintainer's label approves one run${gates}, and the workflow removes that label in every run (${where}), so each new push needs a new label (no sticky label); the workflow also runs on new commits, so a commit pushed between the label and its removal still runs under it: the race of any approval`
          : `a maintainer's label approves each run${gates}, and the workflow removes that label in every run (${where}), so a later label event finds no label`;
      }
      return !approvalBindsCode(reach)
        ? `a maintainer approves the first run${gates}, but the check reads the labels the pull request has, not the label the event adds: any later label event (a maintainer's or a labelling bot's) runs the commits pushed since under the old label`
        : `a maintainer approves each run first${gates}`;
    case 'trusted-author':
      if (reach.sameRepository === true && reach.alsoFrom !== undefined && reach.alsoFrom.length > 0) {
        const named = reach.alsoFrom.map((n) => `\`${n}\``).join(', ');
        return `only pull requests from branches of this repository or of ${named}, which the condition names, reach it${gates}: people with write access, the repository's own bots, and whoever the maintainers let push to ${named}; other forks' pull requests are kept out`;
      }
      return reach.sameRepository === true
        ? `only pull requests from branches of this repository reach it${gates}, which only people with write access or the repository's own bots push; a fork's pull request is kept out`
        : `only trusted authors reach it${gates}`;
    default:
      return reach.forkPullRequest ? 'anyone can start it through a fork\'s `pull_request`, whose run has a read-only token and no secrets' : 'only collaborators with write access start it';
  }
}

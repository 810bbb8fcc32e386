/**
 * Turning findings into edits: `fixRepository` applies fixes one at a time, each verified by a re-scan
 * (the finding is gone and nothing new appears) before it is kept, so what it writes is never worse than
 * what it read; `fixesForFindings` gives each fixable finding of a scan its own diff (the API's `fix`).
 * Pure like the rest of the engine: files in, files out.
 */
import { parseDocument } from 'yaml';
import { RepositoryModel } from '../model/repository.js';
import { buildAction, buildDependabot, buildWorkflow, type Action, type Dependabot, type Workflow } from '../model/workflow.js';
import { ruleMeta } from '../catalog.js';
import { classifyPath, scanRepository, type ScanOptions } from '../scan.js';
import type { SettingsSnapshot } from '../settings/snapshot.js';
import { SETTINGS_FILE, type Finding, type RepositoryFile } from '../types.js';
import { parseYaml } from '../yaml/parse.js';
import { SourceFile } from '../yaml/source.js';
import { unifiedDiff } from './diff.js';
import { applyEdits, offsetOf } from './edit.js';
import { fixerFor } from './index.js';
import { settingsApiFix, type ApiCall } from './settings-api.js';
import type { FixData, FixProposal, TextEdit } from './types.js';

export type FixMode = 'safe' | 'unsafe';

export interface FixOptions extends ScanOptions {
  /** `safe` (default) applies only fixes that keep the workflow's behaviour; `unsafe` adds the others. */
  mode?: FixMode;
  data?: FixData;
  /** Upper bound on verified fix attempts per repository (each costs a re-scan); default 1000. */
  maxAttempts?: number;
  /** Fix only the findings of rules for which this returns true (every finding is still re-scanned). */
  fixRule?: (ruleId: string) => boolean;
  /** Epoch ms (by `limits.now`, else `Date.now`) after which no further fix is tried; the rest are skipped, saying so. */
  deadline?: number;
}

export interface FixedFinding {
  file: string;
  line: number;
  rule_id: string;
  description: string;
  safe: boolean;
}

export interface SkippedFix {
  file: string;
  line: number;
  rule_id: string;
  reason: string;
  /** The fix needs data only the network gives (a pin); `true` lets the CLI say which pins were skipped. */
  needsNetwork?: boolean;
}

export interface FixResult {
  /** Every input file, with the fixed text where a fix applied. */
  files: RepositoryFile[];
  /** Paths whose text changed, sorted. */
  changed: string[];
  applied: FixedFinding[];
  skipped: SkippedFix[];
}

/** A finding's fix as the API shows it. */
export interface FindingFix {
  safe: boolean;
  /** Unified diff of the finding's file. */
  diff: string;
}

interface Parsed {
  byPath: Map<string, { file: SourceFile; model: Workflow | Action | Dependabot }>;
  repository: RepositoryModel;
}

function parseAll(files: readonly RepositoryFile[]): Parsed {
  const byPath = new Map<string, { file: SourceFile; model: Workflow | Action | Dependabot }>();
  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  const dependabot: Dependabot[] = [];
  for (const f of files) {
    const kind = classifyPath(f.path);
    if (kind === null || f.unreadable !== undefined) continue;
    const result = parseYaml(f.text);
    if (!result.ok || result.root.kind !== 'map') continue;
    const file = new SourceFile(f.path, f.text);
    const model = kind === 'workflow' ? buildWorkflow(file, result.root) : kind === 'action' ? buildAction(file, result.root) : buildDependabot(file, result.root);
    if (model.kind === 'workflow') workflows.push(model);
    else if (model.kind === 'action') actions.push(model);
    else dependabot.push(model);
    byPath.set(f.path, { file, model });
  }
  return { byPath, repository: new RepositoryModel(workflows, actions, dependabot) };
}

function propose(finding: Finding, parsed: Parsed, data: FixData): FixProposal | null {
  const fixer = fixerFor(finding.rule_id);
  if (fixer === undefined) return null;
  const entry = parsed.byPath.get(finding.file);
  if (entry === undefined) return { skipped: 'the file could not be parsed' };
  const offset = offsetOf(entry.file.lineStarts, finding.line, finding.column);
  const proposal = fixer.propose({ finding, offset, file: entry.file, model: entry.model, repository: parsed.repository, data });
  if ('edits' in proposal && !fixer.safe) return { ...proposal, safe: false };
  return proposal;
}

/** A finding's identity across edits (lines move; rule, file and description do not). */
function identity(f: Finding): string {
  return `${f.rule_id}\0${f.file}\0${f.description}`;
}

function tally(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(identity(f), (counts.get(identity(f)) ?? 0) + 1);
  return counts;
}

/** Both YAML readers accept the text without a complaint. */
function parsesCleanly(text: string): boolean {
  const ours = parseYaml(text);
  if (!ours.ok || ours.root.kind !== 'map') return false;
  const document = parseDocument(text, { uniqueKeys: true });
  return document.errors.length === 0;
}

type Verdict = { ok: true; after: Finding[] } | { ok: false; reason: string };

function verify(targets: readonly Finding[], before: readonly Finding[], files: readonly RepositoryFile[], path: string, text: string, options: ScanOptions): Verdict {
  if (!parsesCleanly(text)) return { ok: false, reason: 'the edited file would not parse cleanly, so it was left alone' };
  const after = scanRepository(files.map((f) => (f.path === path ? { path, text } : f)), options).findings;
  const was = tally(before);
  const now = tally(after);
  const fixed = tally(targets);
  for (const [key, count] of fixed) {
    if ((now.get(key) ?? 0) > (was.get(key) ?? 0) - count) return { ok: false, reason: 'the edit would not remove the finding, so the file was left alone' };
  }
  // Nothing new: per rule and file, no more findings at or above any severity than before. A finding whose
  // text changed because the fix removed part of its reason (a missing-permissions finding that was HIGH
  // because of the injection just fixed) is not new.
  const wasAtLeast = tallyAtLeast(before);
  for (const [key, count] of tallyAtLeast(after)) {
    if (count > (wasAtLeast.get(key) ?? 0)) return { ok: false, reason: `the edit would add a \`${key.split('\0')[0] ?? ''}\` finding, so the file was left alone` };
  }
  return { ok: true, after };
}

const SEVERITY_RANK: Record<Finding['severity'], number> = { INFO: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

/** Counts of findings per rule, file and "at least this severity". */
function tallyAtLeast(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) {
    for (let rank = 0; rank <= SEVERITY_RANK[f.severity]; rank++) {
      const key = `${f.rule_id}\0${f.file}\0${rank}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

function overlaps(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.some((x) => b.some((y) => x.start < y.end && y.start < x.end));
}

function sameEdits(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.length === b.length && a.every((x, i) => x.start === b[i]?.start && x.end === b[i]?.end && x.text === b[i]?.text);
}

/**
 * Applies the fixes of a repository's findings and returns the new files. Per file, the fixes of all its
 * findings are combined and verified with one re-scan; when that fails, they are retried one at a time,
 * each verified on its own. Running it on its own output changes nothing (every kept fix removes its finding).
 */
export function fixRepository(input: readonly RepositoryFile[], options: FixOptions = {}): FixResult {
  const mode = options.mode ?? 'safe';
  const data = options.data ?? {};
  let files = input.map((f) => ({ ...f }));
  let findings = scanRepository(files, options).findings;
  const applied: FixedFinding[] = [];
  let skipped: SkippedFix[] = [];
  const given = new Set<string>();
  /** Findings whose fix failed verification: tried again after other fixes changed the files. */
  let rejected: Finding[] = [];
  /** Files whose combined fixes failed verification: fixed one finding at a time from then on. */
  const oneByOne = new Set<string>();
  let budget = options.maxAttempts ?? 1000;
  let appliedBefore = 0;
  // A skipped finding is known by its identity and position; when its file changes, positions move, so the
  // file's skips are forgotten and proposed again (cheap; verified rejections are retried, see below).
  const at = (f: Finding) => `${identity(f)}\0${f.line}\0${f.column}`;
  const skip = (target: Finding, reason: string, needsNetwork?: boolean, verification = false) => {
    given.add(at(target));
    if (verification) rejected.push(target);
    skipped.push({ file: target.file, line: target.line, rule_id: target.rule_id, reason, ...(needsNetwork === true ? { needsNetwork } : {}) });
  };
  for (;;) {
    const pending = findings.filter((f) => fixerFor(f.rule_id) !== undefined && (options.fixRule?.(f.rule_id) ?? true) && !given.has(at(f)));
    const first = pending[0];
    if (first === undefined && rejected.length > 0 && applied.length > appliedBefore && budget > 0) {
      // Fixes made since a rejection can make it pass now: one more round for them, so that a second
      // run has nothing left to do.
      appliedBefore = applied.length;
      skipped = skipped.filter((s) => !rejected.some((r) => r.file === s.file && r.line === s.line && r.rule_id === s.rule_id));
      for (const r of rejected) given.delete(at(r));
      rejected = [];
      continue;
    }
    if (first === undefined || budget <= 0) break;
    if (options.deadline !== undefined && (options.limits?.now ?? Date.now)() > options.deadline) {
      for (const f of pending) skip(f, 'the time for fixes (--max-engine-ms) ran out before this one was tried');
      break;
    }
    const path = first.file;
    const original = files.find((f) => f.path === path);
    const targets = oneByOne.has(path) ? [first] : pending.filter((f) => f.file === path);
    const parsed = parseAll(files);
    const accepted: { target: Finding; safe: boolean }[] = [];
    const edits: TextEdit[][] = [];
    for (const target of targets) {
      const proposal = propose(target, parsed, data);
      if (proposal === null) continue;
      if ('skipped' in proposal) {
        skip(target, proposal.skipped, proposal.needsNetwork);
        continue;
      }
      if (!proposal.safe && mode === 'safe') {
        skip(target, `the fix changes behaviour${proposal.note === undefined ? '' : ` (${proposal.note})`}: apply it with --fix=unsafe`);
        continue;
      }
      const same = edits.some((e) => sameEdits(e, proposal.edits));
      if (!same && edits.some((e) => overlaps(e, proposal.edits))) continue; // the next round, on the edited text
      if (!same) edits.push(proposal.edits);
      accepted.push({ target, safe: proposal.safe });
    }
    if (accepted.length === 0 || original === undefined) {
      if (original === undefined) for (const t of targets) given.add(at(t));
      continue;
    }
    const text = applyEdits(original.text, edits.flat());
    budget--;
    const verdict = verify(accepted.map((a) => a.target), findings, files, path, text, options);
    if (!verdict.ok) {
      if (accepted.length === 1 && accepted[0] !== undefined) skip(accepted[0].target, verdict.reason, undefined, true);
      else oneByOne.add(path);
      continue;
    }
    files = files.map((f) => (f.path === path ? { path, text } : f));
    findings = verdict.after;
    const prefix = `\0${path}\0`;
    for (const key of [...given]) if (key.includes(prefix)) given.delete(key);
    skipped = skipped.filter((x) => x.file !== path);
    rejected = rejected.filter((r) => r.file !== path);
    for (const { target, safe } of accepted) applied.push({ file: target.file, line: target.line, rule_id: target.rule_id, description: target.description, safe });
  }
  const changed = files.filter((f, i) => f.text !== input[i]?.text).map((f) => f.path).sort();
  return { files, changed, applied, skipped };
}

/** Bounds of the API's fix computation (`fixesWithLimits`); every one is named in `limited` when met. */
export interface FixLimits {
  /** Findings whose fix is computed, in order (default 200). */
  maxFixes?: number;
  /** A file over this many UTF-8 bytes gets no verified fix (default `MAX_VERIFIED_FILE_BYTES`). */
  maxFileBytes?: number;
  /** Epoch ms (by `now`) after which no further fix is verified. */
  deadline?: number;
  now?: () => number;
}

/** The largest file whose fixes the API verifies (a re-scan of a larger file costs more than a request can give). */
export const MAX_VERIFIED_FILE_BYTES = 256 * 1024;
/** Re-scans one file's fixes may cost beyond the first: the bisection after a combined verification failed. */
const MAX_EXTRA_RESCANS_PER_FILE = 6;

export interface BoundedFixes<T> {
  fixes: (T | null)[];
  /** One sentence naming each bound met and how many findings it left without a fix, or null. */
  limited: string | null;
}

/**
 * Each finding's own fix, as a diff of its file against the scanned text (findings without a fix, or whose
 * fix is skipped or fails verification, get none). Verified on the file alone, bounded by `maxFixes`.
 */
export function fixesForFindings(files: readonly RepositoryFile[], findings: readonly Finding[], withSettings: FixOptions & FixLimits = {}): (FindingFix | null)[] {
  return fixesWithLimits(files, findings, withSettings).fixes;
}

/**
 * `fixesForFindings` with what its bounds left out. Per file, all of its findings' fixes are applied together
 * and verified with one re-scan of the file alone; when that fails, the set is halved and each half verified
 * (at most `MAX_EXTRA_RESCANS_PER_FILE` more re-scans), so one bad fix costs a few re-scans, not one per fix.
 * Fixes whose edits overlap another's wait for the next group of the same file. A file over `maxFileBytes`
 * is not verified, and past `deadline` nothing more is: those findings get no fix and `limited` says so.
 */
export function fixesWithLimits(files: readonly RepositoryFile[], findings: readonly Finding[], withSettings: FixOptions & FixLimits = {}): BoundedFixes<FindingFix> {
  // Workflow fixes are verified on their file alone, without the settings rules (their findings would only
  // cost time); the snapshot stays, since the run model reads it (the default token, reviewed environments)
  // and the descriptions that identify a finding say what it read.
  const enabled = withSettings.isEnabled;
  const { maxFixes = 200, maxFileBytes = MAX_VERIFIED_FILE_BYTES, deadline, now = Date.now, ...rest } = withSettings;
  const options: FixOptions = { ...rest, isEnabled: (id) => ruleMeta(id)?.surface !== 'repo-settings' && (enabled === undefined || enabled(id)) };
  const data = options.data ?? {};
  const out: (FindingFix | null)[] = findings.map(() => null);
  const left = { count: 0, time: 0, size: 0, sizeFiles: new Set<string>(), rescans: 0 };
  const late = () => deadline !== undefined && now() > deadline;
  // The findings to fix, by file, in order; past `maxFixes` the rest are counted.
  const byFile = new Map<string, number[]>();
  let budget = maxFixes;
  findings.forEach((finding, i) => {
    if (fixerFor(finding.rule_id) === undefined || finding.file === SETTINGS_FILE) return;
    if (budget <= 0) {
      left.count++;
      return;
    }
    budget--;
    const list = byFile.get(finding.file) ?? [];
    list.push(i);
    byFile.set(finding.file, list);
  });
  let parsed: Parsed | undefined;
  for (const [path, indices] of byFile) {
    const original = files.find((f) => f.path === path);
    if (original === undefined || original.unreadable !== undefined) continue;
    if (Buffer.byteLength(original.text, 'utf8') > maxFileBytes) {
      left.size += indices.length;
      left.sizeFiles.add(path);
      continue;
    }
    if (late()) {
      left.time += indices.length;
      continue;
    }
    parsed ??= parseAll(files);
    const single = [original];
    const before = scanRepository(single, options).findings;
    const candidates: { index: number; target: Finding; edits: TextEdit[]; safe: boolean }[] = [];
    for (const index of indices) {
      const finding = findings[index]!;
      const proposal = propose(finding, parsed, data);
      if (proposal === null || 'skipped' in proposal) continue;
      const target = before.find((f) => identity(f) === identity(finding));
      if (target === undefined) continue;
      candidates.push({ index, target, edits: proposal.edits, safe: proposal.safe });
    }
    let rescans = MAX_EXTRA_RESCANS_PER_FILE + 1;
    const check = (group: typeof candidates): boolean => {
      const edits: TextEdit[][] = [];
      for (const c of group) if (!edits.some((e) => sameEdits(e, c.edits))) edits.push(c.edits);
      const text = applyEdits(original.text, edits.flat());
      rescans--;
      return verify(group.map((c) => c.target), before, single, path, text, options).ok;
    };
    const accept = (group: typeof candidates) => {
      for (const c of group) {
        const text = applyEdits(original.text, c.edits);
        out[c.index] = { safe: c.safe, diff: unifiedDiff(path, original.text, text) };
      }
    };
    // Groups of fixes whose edits do not overlap (the same edit twice is one), each verified together.
    let pending = candidates;
    while (pending.length > 0) {
      const group: typeof candidates = [];
      const later: typeof candidates = [];
      for (const c of pending) {
        const clash = group.some((g) => !sameEdits(g.edits, c.edits) && overlaps(g.edits, c.edits));
        (clash ? later : group).push(c);
      }
      pending = later;
      // Halving: a group that fails is split and each half verified, while re-scans and time remain.
      const stack = [group];
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (late()) {
          left.time += next.length + pending.length;
          pending = [];
          stack.length = 0;
          break;
        }
        if (rescans <= 0) {
          left.rescans += next.length;
          continue;
        }
        if (check(next)) accept(next);
        else if (next.length > 1) stack.push(next.slice(Math.ceil(next.length / 2)), next.slice(0, Math.ceil(next.length / 2)));
      }
    }
  }
  const parts: string[] = [];
  if (left.time > 0) parts.push(`the time for fixes ran out (${left.time} finding${left.time === 1 ? '' : 's'})`);
  if (left.size > 0) {
    const shown = [...left.sizeFiles].slice(0, 3).join(', ');
    parts.push(`fixes are verified in files up to ${maxFileBytes} bytes (${left.size} finding${left.size === 1 ? '' : 's'} in ${shown}${left.sizeFiles.size > 3 ? ` and ${left.sizeFiles.size - 3} more files` : ''})`);
  }
  if (left.count > 0) parts.push(`at most ${maxFixes} findings get a fix per scan (${left.count} more)`);
  if (left.rescans > 0) parts.push(`a file's fixes are verified with at most ${MAX_EXTRA_RESCANS_PER_FILE + 1} re-scans (${left.rescans} finding${left.rescans === 1 ? '' : 's'})`);
  return { fixes: out, limited: parts.length === 0 ? null : `Some findings have no fix because a bound was met: ${parts.join('; ')}.` };
}

/** A finding's `fix` in the API: a diff of its file, or (settings findings) the GitHub call that fixes it. */
export interface ApiFix {
  safe: boolean;
  diff?: string;
  api?: ApiCall;
}

/**
 * The API's `fix` of each finding (null when it has none): workflow fixes as diffs (no pins: the service
 * does not resolve them), settings fixes as the GitHub call, never made by the service.
 */
export function apiFixes(files: readonly RepositoryFile[], findings: readonly Finding[], fullName: string, options: FixOptions & FixLimits & { settings?: SettingsSnapshot } = {}): (ApiFix | null)[] {
  return apiFixesWithLimits(files, findings, fullName, options).fixes;
}

/** `apiFixes` with the sentence naming the bounds its workflow fixes met (`fixesWithLimits`). */
export function apiFixesWithLimits(files: readonly RepositoryFile[], findings: readonly Finding[], fullName: string, options: FixOptions & FixLimits & { settings?: SettingsSnapshot } = {}): BoundedFixes<ApiFix> {
  const { fixes: diffs, limited } = fixesWithLimits(files, findings, options);
  const fixes = findings.map((finding, i) => {
    if (finding.file === SETTINGS_FILE) {
      const api = settingsApiFix(finding.rule_id, fullName, options.settings);
      return api === null ? null : { safe: false, api };
    }
    return diffs[i] ?? null;
  });
  return { fixes, limited };
}

/*
 * Recall on real workflows: a seeded random sample of privileged workflows (pull_request_target, workflow_run,
 * issue_comment, issues, discussions, reviews) from a corpus directory, audited by hand before anyone looks at
 * the scanner's output, then compared with it.
 *
 *   npm run recall:real -- sample <corpus-dir> <seed> <count>      prints the sample, one repo-relative file a line
 *   npm run recall:real -- compare <corpus-dir> <audit.json>        scans the sampled repositories and scores the audit
 *
 * The audit is a JSON list of the real problems found by reading the files: `{ file, line, severity, kind,
 * note }`, `file` as printed by `sample` (`<repo dir>/.github/workflows/x.yml`), `kind` one of our rule ids
 * (what the problem is, in our catalog's words). A problem counts as found when the scan reports a finding of
 * that rule in that file within the same job (when the problem is outside jobs, a workflow-level problem: within
 * five lines, or a finding about the whole file or a whole job, bound to no job or at a job's key), or in the
 * file of a local action (`uses: ./dir`, or the repository's own `owner/name/dir@ref`) the problem's line calls,
 * or of a reusable workflow of the repository the problem's line calls (`uses: ./.github/workflows/x.yml`, or the
 * repository's own `owner/name/.github/workflows/x.yml@ref`), or of one of the repository's own actions or reusable
 * workflows those call in turn (five levels at most: reusable workflows nest),
 * where the action's own steps are reported; or in a workflow of the repository that the problem's job starts with a
 * dispatch (`workflow_dispatch` or `repository_dispatch` to this repository, as the engine reads dispatches), where
 * the dispatched run's checkout and build are reported. Meant
 * for the shared corpus's checking half (`../shared/tools/corpus-split.mjs`), which this script does not need:
 * any directory of repositories works, and a missing directory is an error in one line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scanRepository } from '../../lib/engine/scan.js';
import type { FindingRecord, Severity } from '../../lib/engine/types.js';
import { parseYaml } from '../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../lib/engine/yaml/source.js';
import { buildWorkflow, type Workflow } from '../../lib/engine/model/workflow.js';
import { dispatchedWorkflows, selfDispatches } from '../../lib/engine/analysis/pr-dispatch.js';
import { get, isMap, keyText, type YNode } from '../../lib/engine/yaml/model.js';

const PRIVILEGED = new Set(['pull_request_target', 'workflow_run', 'issue_comment', 'issues', 'discussion', 'discussion_comment', 'pull_request_review', 'pull_request_review_comment']);

export interface Problem {
  file: string;
  line: number;
  severity: Severity;
  kind: string;
  note?: string;
}

function fail(message: string): never {
  process.stderr.write(`recall:real: ${message}\n`);
  process.exit(2);
}

/** The repository directories of a corpus directory, by name. */
function repositories(corpus: string): string[] {
  if (!existsSync(corpus) || !statSync(corpus).isDirectory()) fail(`${corpus} is not a directory of repositories (the shared corpus's checking half, for instance)`);
  return readdirSync(corpus, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

/** The regular files under `dir`; symbolic links are not followed (a link may point out of the copy, or nowhere). */
function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
}

function triggersOf(text: string): string[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || !isMap(parsed.root)) return [];
  const on: YNode | undefined = get(parsed.root, 'on');
  if (on === undefined) return [];
  if (on.kind === 'scalar') return [String(on.value)];
  if (on.kind === 'seq') return on.items.flatMap((i) => (i.kind === 'scalar' ? [String(i.value)] : []));
  return on.pairs.map((p) => keyText(p.key));
}

/** Every workflow of the corpus with a privileged trigger, as `<repo>/.github/workflows/<file>`, sorted. */
function privilegedWorkflows(corpus: string): string[] {
  const found: string[] = [];
  for (const repo of repositories(corpus)) {
    const files: string[] = [];
    const workflows = join(corpus, repo, '.github', 'workflows');
    walk(workflows, files);
    for (const file of files.sort()) {
      // GitHub runs only the files directly in `.github/workflows` (a `disabled/` folder there is never run).
      if (!/\.ya?ml$/.test(file) || dirname(file) !== workflows) continue;
      if (triggersOf(readFileSync(file, 'utf8')).some((t) => PRIVILEGED.has(t))) found.push(relative(corpus, file));
    }
  }
  return found;
}

/** mulberry32: the same sample for the same seed on every machine. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample(corpus: string, seed: number, count: number): string[] {
  const all = privilegedWorkflows(corpus);
  const rand = random(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j] as string, all[i] as string];
  }
  return all.slice(0, count).sort();
}

/**
 * Scans one repository directory as the CLI does (workflows, actions, Dependabot), under its folder name, and
 * knowing the repository's name as the CLI does from a clone's `origin` remote: here from the folder's name
 * (`owner__name`), so the repository's own actions and images named in full are its own.
 */
function scanRepositoryDir(dir: string): FindingRecord[] {
  const paths: string[] = [];
  walk(dir, paths);
  const files = paths.filter((p) => !relative(dir, p).startsWith('.git/')).map((p) => ({ path: relative(dir, p).split('\\').join('/'), text: readFileSync(p, 'utf8') }));
  const name = /^([A-Za-z0-9][A-Za-z0-9-]*)__([A-Za-z0-9._-]+)$/.exec(basename(dir));
  return scanRepository(files, name === null ? {} : { repository: `${name[1]}/${name[2]}` }).records;
}

function jobAt(text: string, line: number): string | null {
  const lines = text.split('\n');
  let inJobs = false;
  let job: string | null = null;
  for (let i = 0; i < Math.min(line, lines.length); i++) {
    const l = lines[i] as string;
    if (/^jobs:\s*$/.test(l)) inJobs = true;
    else if (/^\S/.test(l)) inJobs = false;
    else if (inJobs) {
      const m = /^ {2}([A-Za-z_][\w-]*):\s*$/.exec(l);
      if (m !== null) job = m[1] ?? null;
    }
  }
  return inJobs ? job : null;
}

/** The lines (1-based) of the job keys (`  build:` under `jobs:`): a finding there is about a whole job. */
function jobKeyLines(text: string): Set<number> {
  const keys = new Set<number>();
  let inJobs = false;
  text.split('\n').forEach((l, i) => {
    if (/^jobs:\s*$/.test(l)) inJobs = true;
    else if (/^\S/.test(l)) inJobs = false;
    else if (inJobs && /^ {2}[A-Za-z_][\w-]*:\s*$/.test(l)) keys.add(i + 1);
  });
  return keys;
}

export interface Score {
  found: number;
  total: number;
  foundHigh: number;
  high: number;
  /** Found problems the scan rates at the audited severity. */
  sameSeverity: number;
  misses: string[];
  /** Found, at another severity: `<audited> -> <ours> <kind> <file>:<line>`. */
  rated: string[];
}

/**
 * The local actions (`uses: ./dir`, or `$/dir`) named on the problem's line or the three after it (a step's `name:` line
 * comes first): a problem an auditor lists at the call may be reported in the action's own file.
 */
function calledActions(text: string, line: number, repo: string, span = 4): string[] {
  const lines = text.split('\n').slice(line - 1, line - 1 + span);
  const dirs: string[] = [];
  // The repository's own actions named as `owner/name[/path]@ref` (the corpus folder is `owner__name`).
  const self = repo.replace('__', '/').toLowerCase();
  for (const l of lines) {
    const own = /uses:\s*["']?([\w.-]+\/[\w.-]+)((?:\/[^"'\s#@]*)?)@/.exec(l);
    if (own?.[1] !== undefined && own[1].toLowerCase() === self && !(own[2] ?? '').split('/').includes('..')) dirs.push((own[2] ?? '').replace(/^\/+|\/+$/g, ''));
    // `uses: ./` is the repository's root action; `$/path` is GitHub's self-repository form, read as `./path`
    // (as the engine reads it: lib/engine/model/uses.ts).
    const m = /uses:\s*["']?[.$]\/([^"'\s#@]*)/.exec(l);
    if (m?.[1] !== undefined && !m[1].split('/').includes('..')) dirs.push(m[1].replace(/\/+$/, ''));
  }
  return dirs;
}

/**
 * The action files of `dirs` and of the repository's own actions and reusable workflows they call in turn (a
 * composite calling another, a reusable workflow calling an action), five levels at most (a reusable workflow calling another that calls an action is three already).
 */
function actionFiles(corpus: string, repo: string, dirs: readonly string[]): Set<string> {
  const files = new Set<string>();
  let level = [...dirs];
  for (let depth = 0; depth < 5 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      // A reusable workflow of the repository (`uses: ./.github/workflows/x.yml`) is its own file; an action, its folder's action file.
      const names = /\.ya?ml$/.test(dir) ? [dir] : dir === '' ? ['action.yml', 'action.yaml'] : [`${dir}/action.yml`, `${dir}/action.yaml`];
      for (const name of names) {
        if (files.has(name)) continue;
        files.add(name);
        const path = join(corpus, repo, name);
        if (!existsSync(path)) continue;
        const text = readFileSync(path, 'utf8');
        // Every `uses:` of the action's steps: a problem the auditor lists at the outer call may sit in an inner action.
        next.push(...calledActions(text, 1, repo, Infinity));
      }
    }
    level = next;
  }
  return files;
}

/** The repository's workflows, parsed as the engine does (files that do not parse are left out). */
function repositoryWorkflows(corpus: string, repo: string): Workflow[] {
  const paths: string[] = [];
  walk(join(corpus, repo, '.github', 'workflows'), paths);
  const workflows: Workflow[] = [];
  for (const path of paths.filter((p) => /\.ya?ml$/.test(p))) {
    const file = new SourceFile(relative(join(corpus, repo), path).split('\\').join('/'), readFileSync(path, 'utf8'));
    const parsed = parseYaml(file.text);
    if (parsed.ok && parsed.root.kind === 'map') workflows.push(buildWorkflow(file, parsed.root));
  }
  return workflows;
}

/**
 * The workflows of the repository that the job at the problem's line starts with a dispatch (`workflow_dispatch` or
 * `repository_dispatch` to this repository: `gh workflow run`, the REST call, a dispatch action, a slash-command
 * dispatcher), as the engine reads them (analysis/pr-dispatch.ts): an auditor lists a problem at the dispatching
 * step that the scan reports where the dispatched workflow checks out and runs the code. Every job of the file when
 * the line is outside jobs.
 */
function dispatchedFiles(workflows: readonly Workflow[], path: string, job: string | null, repo: string): Set<string> {
  const workflow = workflows.find((w) => w.file.path === path);
  const names = new Set([repo.replace('__', '/').toLowerCase()]);
  const files = new Set<string>();
  for (const j of workflow?.jobs ?? []) {
    if (job !== null && j.id !== job) continue;
    for (const dispatch of selfDispatches(j, () => names, { everyCommand: true })) for (const target of dispatchedWorkflows(dispatch, workflows)) if (target !== workflow) files.add(target.file.path);
  }
  return files;
}

/** Which audited problems the scan reports (see the header). */
export function score(corpus: string, problems: readonly Problem[]): Score {
  const byRepo = new Map<string, FindingRecord[]>();
  const workflowsOf = new Map<string, Workflow[]>();
  let found = 0;
  let foundHigh = 0;
  let high = 0;
  let sameSeverity = 0;
  const misses: string[] = [];
  const rated: string[] = [];
  for (const problem of problems) {
    const [repo, ...rest] = problem.file.split('/');
    const path = rest.join('/');
    if (repo === undefined) continue;
    if (!byRepo.has(repo)) byRepo.set(repo, scanRepositoryDir(join(corpus, repo)));
    const text = readFileSync(join(corpus, problem.file), 'utf8');
    const job = jobAt(text, problem.line);
    const records = (byRepo.get(repo) ?? []).filter((r) => r.finding.file === path && r.finding.rule_id === problem.kind);
    const actions = actionFiles(corpus, repo, calledActions(text, problem.line, repo));
    // A workflow-level problem (outside jobs: the auditor's brief puts one such as a missing `permissions:` block
    // on the `on:` line or line 1) is found by a finding about the whole file or a whole job: one bound to no job,
    // or at a job's key (missing-permissions names each job that runs with the default token there).
    const keys = job === null ? jobKeyLines(text) : new Set<number>();
    if (!workflowsOf.has(repo)) workflowsOf.set(repo, repositoryWorkflows(corpus, repo));
    const dispatched = dispatchedFiles(workflowsOf.get(repo) ?? [], path, job, repo);
    // Of the findings that match, the one nearest the problem's line (two unpinned actions in one job are two
    // findings: the one on the problem's own line says what the scan rates it).
    const nearest = (list: readonly FindingRecord[]) => list.reduce<FindingRecord | undefined>((best, r) => (best === undefined || Math.abs(r.finding.line - problem.line) < Math.abs(best.finding.line - problem.line) ? r : best), undefined);
    const hit =
      nearest(records.filter((r) => (job !== null ? r.job === job || (r.job === null && Math.abs(r.finding.line - problem.line) <= 5) : Math.abs(r.finding.line - problem.line) <= 5 || r.job === null || keys.has(r.finding.line)))) ??
      (byRepo.get(repo) ?? []).find((r) => (actions.has(r.finding.file) || dispatched.has(r.finding.file)) && r.finding.rule_id === problem.kind);
    if (problem.severity === 'HIGH') high++;
    if (hit !== undefined) {
      found++;
      if (problem.severity === 'HIGH') foundHigh++;
      if (hit.finding.severity === problem.severity) sameSeverity++;
      else rated.push(`${problem.severity} -> ${hit.finding.severity} ${problem.kind} ${problem.file}:${problem.line}`);
    } else {
      misses.push(`${problem.severity} ${problem.kind} ${problem.file}:${problem.line}${problem.note !== undefined ? ` (${problem.note})` : ''}`);
    }
  }
  return { found, total: problems.length, foundHigh, high, sameSeverity, misses, rated };
}

function compare(corpus: string, auditFile: string): void {
  if (!existsSync(auditFile)) fail(`${auditFile} does not exist: write the audit first (see the header of scripts/recall/real.ts)`);
  const result = score(corpus, JSON.parse(readFileSync(auditFile, 'utf8')) as Problem[]);
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${Math.round((100 * a) / b)}%`);
  process.stdout.write(`found ${result.found} of ${result.total} real problems (${pct(result.found, result.total)}); HIGH ${result.foundHigh} of ${result.high} (${pct(result.foundHigh, result.high)}); at the audited severity ${result.sameSeverity} of ${result.found} found\n`);
  for (const miss of result.misses) process.stdout.write(`  missed: ${miss}\n`);
  for (const other of result.rated) process.stdout.write(`  rated differently (audit -> scan): ${other}\n`);
}

function main(argv: readonly string[]): void {
  const [command, corpus, a, b] = argv;
  if (command === 'sample' && corpus !== undefined && a !== undefined && b !== undefined) {
    for (const file of sample(corpus, Number(a), Number(b))) process.stdout.write(`${file}\n`);
  } else if (command === 'compare' && corpus !== undefined && a !== undefined) {
    compare(corpus, a);
  } else {
    fail('usage: npm run recall:real -- sample <corpus-dir> <seed> <count> | compare <corpus-dir> <audit.json>');
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));

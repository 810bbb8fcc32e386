/**
 * zizmor's expectations: its integration tests (`crates/zizmor/tests/integration`) run the `zizmor` binary
 * on fixtures of `test-data/` and snapshot the output with insta, inline (`@"..."` in `audit/<audit>.rs`)
 * or in `.snap` files (whose header repeats the expression). Each finding of the output starts with
 * `<level>[<audit>]: <title>` followed by `--> <input>:<line>:<column>`; "No findings to report" is a run
 * with none.
 *
 * A case is one audit on one fixture file: it must fire when some run's output shows the audit on that
 * file (at any persona: a pedantic or auditor finding is still the peer's claim), and it must stay quiet
 * when a test of that audit's own module ran the file and no run shows the audit there. Runs that need the
 * network, a zizmor configuration other than a forbidden-uses policy, a remote repository or a fix are
 * not compared.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import type { RepositoryFile } from '../../lib/engine/types.js';
import { type Case, type PeerReading, RecallInputError, type ScanUnit, unit, type Unmeasured } from './cases.js';
import { lexRust, methodCalls, snapshotCalls, type Token } from './rust.js';

const INTEGRATION = join('crates', 'zizmor', 'tests', 'integration');

/** One `zizmor` run a test snapshots. */
export interface Run {
  /** `audit/<module>.rs:<line>` or the `.snap` file. */
  where: string;
  /** The audit whose module holds the test (`template-injection` for audit/template_injection.rs), or null. */
  module: string | null;
  /** test-data paths (a file, or a directory ending in `/`). */
  inputs: string[];
  args: string[];
  config: string | null;
  /** Why the run cannot be compared offline, or null. */
  skip: string | null;
  findings: { audit: string; location: string; line: number }[];
}

/** Reads the findings of a plain-format zizmor output. */
export function parseZizmorOutput(text: string): Run['findings'] {
  const out: Run['findings'] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const header = /^\s*(?:error|warning|help|info|note)\[([a-z0-9-]+)\]:/.exec(lines[i]!);
    if (header === null) continue;
    for (let k = i + 1; k < Math.min(lines.length, i + 4); k++) {
      const at = /^\s*-->\s+(.+):(\d+):(\d+)\s*$/.exec(lines[k]!);
      if (at !== null) {
        out.push({ audit: header[1]!, location: at[1]!, line: Number(at[2]) });
        break;
      }
    }
  }
  return out;
}

function runOf(expression: Token[], attributes: string[], where: string, module: string | null, output: string | null): Run {
  const run: Run = { where, module, inputs: [], args: [], config: null, skip: null, findings: [] };
  if (!(expression[0]?.v === 'zizmor' && expression[1]?.v === '(')) run.skip = 'not a zizmor run (a fix diff or a helper)';
  if (attributes.some((a) => /gh-token-tests/.test(a) || /^ignore\b/.test(a))) run.skip = 'an online test (gh-token-tests)';
  const stringIn = (tokens: Token[]) => tokens.filter((t) => t.t === 'str').map((t) => t.v);
  for (const call of methodCalls(expression)) {
    const idents = call.args.map((t) => t.v);
    switch (call.name) {
      case 'input':
        if (idents.includes('format')) run.skip ??= 'an input named at run time (format!)';
        else if (idents.includes('input_under_test')) run.inputs.push(...stringIn(call.args));
        else if (idents.includes('workspace')) run.skip ??= 'a workspace the test writes';
        else run.skip ??= 'a remote repository or a path outside test-data';
        break;
      case 'args':
        run.args.push(...stringIn(call.args));
        break;
      case 'config':
        if (idents.includes('input_under_test')) run.config = stringIn(call.args)[0] ?? null;
        else run.skip ??= 'a configuration the test writes';
        break;
      case 'offline':
        if (idents.includes('AssertOnline') || idents.includes('false') || idents.includes('Implicit')) run.skip ??= 'an online run';
        break;
      case 'expects_failure':
        run.skip ??= 'a run expected to fail';
        break;
      case 'working_dir':
        run.skip ??= 'a run from another working directory';
        break;
      default:
        break;
    }
  }
  if (run.args.some((a) => a.startsWith('--format') && a !== '--format=plain')) run.skip ??= 'a non-plain output format';
  if (run.args.some((a) => /^--(fix|gh-token|collect=remote)/.test(a))) run.skip ??= `an option the harness does not reproduce (${run.args.join(' ')})`;
  if (output === null) run.skip ??= 'no snapshot';
  else if (/^\s*(fatal|error):/m.test(output) && parseZizmorOutput(output).length === 0) run.skip ??= 'an error output';
  run.findings = output === null ? [] : parseZizmorOutput(output);
  if (run.inputs.length === 0) run.skip ??= 'no test-data input';
  return run;
}

/** Every run the integration tests snapshot, inline or stored. */
export async function zizmorRuns(root: string): Promise<Run[]> {
  const runs: Run[] = [];
  const rsFiles: string[] = [];
  const snapFiles: string[] = [];
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'test-data') await walk(path);
      else if (e.name.endsWith('.rs')) rsFiles.push(path);
      else if (e.name.endsWith('.snap')) snapFiles.push(path);
    }
  };
  await walk(root);
  for (const file of rsFiles.sort()) {
    const rel = relative(root, file);
    const module = /^audit\/([a-z0-9_]+)\.rs$/.exec(rel)?.[1]?.replace(/_/g, '-') ?? null;
    for (const call of snapshotCalls(lexRust(await readFile(file, 'utf8')))) {
      if (call.inline === null) continue; // stored: read from its .snap file below
      runs.push(runOf(call.expression, call.attributes, `${rel}:${call.line}`, module === 'mod' ? null : module, call.inline));
    }
  }
  for (const file of snapFiles.sort()) {
    const text = await readFile(file, 'utf8');
    const parts = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    if (parts === null) continue;
    const header = parseYaml(parts[1]!) as { source?: string; expression?: string } | null;
    const expression = lexRust(String(header?.expression ?? ''));
    const source = String(header?.source ?? '');
    const module = /audit\/([a-z0-9_]+)\.rs$/.exec(source)?.[1]?.replace(/_/g, '-') ?? null;
    runs.push(runOf(expression, [], relative(root, file), module, parts[2]!));
  }
  return runs;
}

/** Where our engine reads a fixture given as a single file: workflows under .github/workflows. */
export function repositoryPath(testDataPath: string): string {
  const name = basename(testDataPath);
  if (/^action\.ya?ml$/.test(name)) return testDataPath;
  if (/^dependabot\.ya?ml$/.test(name)) return '.github/dependabot.yml';
  return `.github/workflows/${name}`;
}

/** zizmor's `# zizmor: ignore[audit]` comments, said the way our engine reads them. */
export function translateIgnores(text: string, ours: (audit: string) => string[]): string {
  return text.replace(/zizmor:\s*ignore\[([^\]]*)\]/g, (_, list: string) => {
    const ids = list
      .split(',')
      .map((a) => a.trim())
      .flatMap((a) => ours(a));
    return ids.length === 0 ? 'zizmor-ignore-of-an-unmapped-audit' : `chainbreaker: ignore[${[...new Set(ids)].join(',')}]`;
  });
}

export async function readZizmor(dir: string, ours: (audit: string) => string[]): Promise<PeerReading> {
  const root = join(dir, INTEGRATION);
  const testData = join(root, 'test-data');
  try {
    if (!(await stat(testData)).isDirectory()) throw new Error();
  } catch {
    throw new RecallInputError(`${dir} is not a checkout of zizmor: ${INTEGRATION}/test-data is missing; pass the repository's root directory`);
  }
  const runs = await zizmorRuns(root);

  // The files of each input, as our engine reads them, and the path zizmor's output gives each one.
  const inputs = new Map<string, { unit: ScanUnit; files: Map<string, string> }>();
  const load = async (input: string, options: Record<string, unknown> | undefined, ignores: boolean): Promise<{ unit: ScanUnit; files: Map<string, string> } | null> => {
    const key = `${input}\0${JSON.stringify(options ?? null)}\0${ignores}`;
    const read = (text: string) => (ignores ? translateIgnores(text, ours) : text);
    const cached = inputs.get(key);
    if (cached !== undefined) return cached;
    const full = join(testData, input);
    let info;
    try {
      info = await stat(full);
    } catch {
      return null;
    }
    const repositoryFiles: RepositoryFile[] = [];
    /** test-data path -> the repository path our engine sees it at. */
    const files = new Map<string, string>();
    if (info.isDirectory()) {
      for (const f of await collectRepositoryFiles(full)) {
        repositoryFiles.push({ ...f, text: read(f.text) });
        files.set(join(input, f.path).replace(/\\/g, '/'), f.path);
      }
    } else {
      // zizmor reads a single file by its name: a pre-commit configuration is not a workflow.
      if (/^\.pre-commit-config\.ya?ml$/.test(basename(input))) return null;
      const path = repositoryPath(input);
      repositoryFiles.push({ path, text: read(await readFile(full, 'utf8')) });
      files.set(input, path);
    }
    const loaded = { unit: unit(repositoryFiles, options), files };
    inputs.set(key, loaded);
    return loaded;
  };

  /** A configuration file: the audits it configures, and its forbidden-uses policy as our rule options. */
  const configOf = async (config: string): Promise<{ configured: Set<string>; options?: Record<string, unknown> }> => {
    try {
      const doc = parseYaml(await readFile(join(testData, config), 'utf8')) as { rules?: Record<string, { config?: { allow?: string[]; deny?: string[] } } | null> } | null;
      const rules = doc?.rules ?? {};
      const policy = rules['forbidden-uses']?.config;
      const configured = new Set(Object.keys(rules).filter((a) => a !== 'forbidden-uses' || policy === undefined));
      if (policy === undefined) return { configured };
      return { configured, options: { 'forbidden-uses': { ...(policy.allow === undefined ? {} : { allow: policy.allow }), ...(policy.deny === undefined ? {} : { deny: policy.deny }) } } };
    } catch {
      return { configured: new Set(['*']) };
    }
  };

  /** (audit, test-data file) -> what the peer says, and where. */
  const fires = new Map<string, { audit: string; file: string; unit: ScanUnit; target: string; where: Set<string> }>();
  const ranIn = new Map<string, { audit: string; file: string; unit: ScanUnit; target: string; where: Set<string> }>();
  const unmeasured: Unmeasured[] = [];
  let compared = 0;
  const skippedWhy = new Map<string, number>();
  for (const run of runs) {
    if (run.skip !== null) {
      const why = run.skip.replace(/ \(.*\)$/, '');
      skippedWhy.set(why, (skippedWhy.get(why) ?? 0) + 1);
      if (run.inputs.length > 0) for (const f of run.findings) unmeasured.push({ check: f.audit, fixture: run.inputs[0]!, where: run.where, why: run.skip });
      continue;
    }
    const config = run.config === null ? { configured: new Set<string>() } : await configOf(run.config);
    const configured = (audit: string) => config.configured.has(audit) || config.configured.has('*');
    compared++;
    for (const input of run.inputs) {
      // `--no-ignores` shows what zizmor's ignore comments hide: our reading keeps the file as it is then.
      const loaded = await load(input.replace(/\/$/, ''), config.options, !run.args.includes('--no-ignores'));
      if (loaded === null) {
        for (const f of run.findings) unmeasured.push({ check: f.audit, fixture: input, where: run.where, why: 'a file our engine does not read (a pre-commit configuration)' });
        continue;
      }
      const single = loaded.files.size === 1 && !input.endsWith('/') && (await stat(join(testData, input))).isFile();
      const fileOf = (location: string): string | null => {
        if (location === '@@INPUT@@') return single ? input : null;
        const m = /^@@INPUT@@\/(.+)$/.exec(location);
        return m === null ? null : join(input.replace(/\/$/, ''), m[1]!).replace(/\\/g, '/');
      };
      for (const f of run.findings) {
        const file = fileOf(f.location);
        if (file === null || !loaded.files.has(file)) {
          unmeasured.push({ check: f.audit, fixture: file ?? input, where: run.where, why: 'a file our engine does not read (not a workflow, action or Dependabot file)' });
          continue;
        }
        if (configured(f.audit)) {
          unmeasured.push({ check: f.audit, fixture: file, where: run.where, why: `a zizmor configuration (${run.config})` });
          continue;
        }
        const fixture = run.config === null ? file : `${file} with ${run.config}`;
        const key = `${f.audit}\0${fixture}`;
        const entry = fires.get(key) ?? { audit: f.audit, file: fixture, unit: loaded.unit, target: loaded.files.get(file)!, where: new Set<string>() };
        entry.where.add(run.where);
        fires.set(key, entry);
      }
      const audit = run.module;
      if (audit === null || configured(audit)) continue;
      for (const [file, target] of loaded.files) {
        const fixture = run.config === null ? file : `${file} with ${run.config}`;
        const key = `${audit}\0${fixture}`;
        const entry = ranIn.get(key) ?? { audit, file: fixture, unit: loaded.unit, target, where: new Set<string>() };
        entry.where.add(run.where);
        ranIn.set(key, entry);
      }
    }
  }

  const cases: Case[] = [];
  for (const e of fires.values()) cases.push({ check: e.audit, fixture: e.file, unit: e.unit, target: e.target, expect: 'fires', where: [...e.where] });
  for (const [key, e] of ranIn) {
    if (fires.has(key)) continue;
    cases.push({ check: e.audit, fixture: e.file, unit: e.unit, target: e.target, expect: 'clean', where: [...e.where] });
  }
  const skipped = [...skippedWhy].map(([why, n]) => `${n} ${why}`).join(', ');
  return {
    peer: 'zizmor',
    cases,
    unmeasured,
    unread: [],
    summary: `${runs.length} snapshotted runs in ${INTEGRATION} (${compared} compared; not compared: ${skipped})`,
  };
}

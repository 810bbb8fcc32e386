/**
 * The command-line scanner: argument parsing, reading files, exit codes. Everything else (scanning,
 * combinations, formats) lives in lib/. `main` takes its I/O as arguments so tests run it in-process.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { lstat, open, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isMap, isScalar, parseDocument } from 'yaml';
import { BASELINE_FILE, BaselineError, DISMISSAL_REASONS, baselineDecisions, formatBaseline, parseBaseline, type BaselineDecision, type DismissalReason } from '../lib/cli/baseline.js';
import { CONFIG_FILE, CONFIG_FILE_YAML, ConfigError, configDisabled, configRuleOptions, configSeverities, parseConfig, type Config } from '../lib/cli/config.js';
import { globMatcher } from '../lib/cli/glob.js';
import { repositoryUrl } from '../lib/cli/repository-url.js';
import { didYouMean } from '../lib/cli/suggest.js';
import { CATALOG, isKnownRule } from '../lib/engine/catalog.js';
import { COMBINATION_KINDS, cannotFire } from '../lib/engine/combinations/index.js';
import { REPORT_FORMATS, docUrlFrom, formatKindsJson, formatKindsText, formatReport, formatRulesJson, formatRulesText, type ReportFormat } from '../lib/engine/format/index.js';
import { neutralize } from '../lib/engine/format/neutralize.js';
import { ReportBuilder, enabledRules, gate, narrowReport, type FailOn, type Report, type ReportOptions, type RepositoryInput, type RepositoryReport } from '../lib/engine/report.js';
import type { SettingsSnapshot } from '../lib/engine/settings/snapshot.js';
import { SEVERITIES, type RepositoryFile, type Ruleset, type Severity } from '../lib/engine/types.js';
import { MAX_FILE_BYTES } from '../lib/engine/yaml/parse.js';
import { classifyPath } from '../lib/engine/paths.js';
import { collectRepositoryFiles, readBounded } from '../lib/codehost/checkout.js';
import { githubHostOf, originDefaultBranch, originRepository } from '../lib/codehost/origin.js';

// What a thread of a scan's pool runs (bin/chainbreaker.ts), from this bundle.
export { enabledRules, scanForReport } from '../lib/engine/report.js';

// Replaced with the package version and repository URL by the build (scripts/build-cli.ts); undefined under tsx.
declare const __CHAINBREAKER_VERSION__: string | undefined;
declare const __CHAINBREAKER_REPOSITORY__: string | undefined;

export interface CliIO {
  argv: readonly string[];
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown };
  /** Standard input, read for the target `-`. */
  stdin?: AsyncIterable<string | Buffer>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * Announces bounded work: a repository's scan or a checkout's fixes starts with its budget (ms), `null`
   * when it ended. In the worker the bundle runs scans in, the main thread terminates the worker past the
   * budget (bin/worker-run.ts); elsewhere nothing listens.
   */
  watch?: (budgetMs: number | null) => void;
  /**
   * Starts a pool of scanning threads (the bundle's, bin/scan-pool.ts), for `scan` and `baseline` over several
   * repositories with --jobs above 1; absent (tests, `npm run cli`, standard input on the main thread): every
   * repository is scanned in this thread.
   */
  scanPool?: (settings: { size: number; options: ReportOptions; budgetMs: number }) => ScanPool;
}

/**
 * Scans repositories on other threads. Parts come back in whatever order the threads finish; the CLI merges them in
 * the order of the repositories. A repository past its budget, or a thread that fails, rejects every part not yet
 * merged with the one message of the failure (the command then exits 3).
 */
export interface ScanPool {
  scan(repository: Omit<RepositoryInput, 'display'>): Promise<RepositoryReport>;
  /** Lets the threads end, once every part came back. */
  close(): Promise<void>;
  /** Stops the threads at once (the command failed). */
  terminate(): Promise<void>;
}

export const EXIT = { ok: 0, findings: 1, usage: 2, operational: 3 } as const;

/** A mistake in the command line: exit 2. */
class UsageError extends Error {}
/** The command line is fine but something could not be read or written: exit 3. */
class OperationalError extends Error {}

const EXIT_CODES = `Exit codes:
  0  no attack path and no finding at or above the --fail-on threshold
  1  an attack path or a finding at or above the --fail-on threshold (a path at its own severity)
  2  usage error: unknown command or option, invalid value, unknown rule id (in an option, the config file
     or a suppression comment), invalid config, baseline or settings snapshot, --github or --online without
     GITHUB_TOKEN
  3  operational error: unreadable repository path or settings file, a file named on the command line
     that is not valid YAML, not a workflow or action, or over a limit (unless --keep-going), output file
     not writable, GitHub unreachable or refusing (not found, rate limited, timed out)`;

const HELP = `Usage: chainbreaker <command> [options]

Finds weaknesses in GitHub Actions workflows and repository settings, and chains them into attack paths.

Commands:
  scan [path ...]        Scan repository checkouts (default: the current directory), single workflow or
                         action files, - (one workflow on standard input), or with --github owner/repo a
                         repository on GitHub
  baseline [path ...]    Record the current findings (-o FILE, default .chainbreaker-baseline.json) so
                         that scan --baseline FILE reports and gates only on new ones
  rules [rule-id]        List the rule catalog, or print one rule's documentation
  combinations           List the kinds of attack paths (toxic combinations)

Options:
  -h, --help             Show help (also after a command: chainbreaker scan --help)
  -v, --version          Show the version

${EXIT_CODES}
`;

const SCAN_HELP = `Usage: chainbreaker scan [path ...] [--github owner/repo ...] [options]

Scans each repository checkout (default: . when no --github is given): .github/workflows/*.yml|yaml, action
definitions (action.yml|yaml anywhere in the repository, node_modules excepted; at most 200 beyond the root,
.github/actions/ and those a workflow uses) and .github/dependabot.yml|yaml. With several repositories, each file is prefixed with its repository path.
A path may also be a single workflow or action file, or - for one workflow read from standard input.
A checkout whose origin remote (.git/config) is on GitHub, or a --github repository, is known by its
owner/repo: actions of the same owner are first-party (LOW when unpinned, no attack path).

Options:
  -c, --config FILE      the config file (default: .chainbreaker.yml at the root of the first path, if any):
                         ruleset, fail-on, min-severity, baseline, docs-url, ignore (path globs)
                         and rules (per rule: enabled, severity, options); command-line flags win over it
      --baseline FILE    report and gate only on findings not recorded in FILE (chainbreaker baseline)
      --min-severity LVL report only findings at or above LVL: high, medium, low, info (default)
  -f, --format FORMAT    text (default), json, sarif or github (workflow-command annotations)
      --ruleset NAME     all (default) or owasp (only the CICD-SEC-* rules)
      --disable IDS      turn rules off: comma-separated rule ids, repeatable
      --fail-on LEVEL    exit 1 when an attack path (at its severity) or a finding is at or above LEVEL:
                         critical, high (default), medium, low, info, none
      --verbose          list LOW and INFO findings one by one and every description in full (the text
                         report otherwise counts LOW and INFO per rule in one line each)
  -o, --output FILE      write the report to FILE instead of standard output
      --settings FILE    a repository-settings snapshot (JSON) adding settings findings and the attack paths
                         they complete; with several repository paths, give one per path, in the same order
      --fix[=MODE]       fix the findings that have a fix, in place, then report what remains: --fix applies
                         the safe fixes, --fix=unsafe adds those that may change behaviour, --fix=diff prints
                         the safe fixes as a unified diff and changes nothing. Pins come from
                         .chainbreaker/pins.json, then GitHub (GITHUB_TOKEN) and Docker Hub/GHCR; pins that
                         cannot be resolved are listed as skipped. Local checkouts only
      --github REPO      scan owner/repo on GitHub, files and settings, as the Chainbreaker service reads
                         them; repeatable. The token comes from GITHUB_TOKEN (a personal access token,
                         \`gh auth token\`, or a workflow's token); settings it cannot read are reported as
                         unreadable. For GitHub Enterprise Server, set GITHUB_API_URL (https://HOST/api/v3)
      --keep-going       a file named on the command line that is not valid YAML, not a workflow, action or
                         Dependabot file, or over --max-file-bytes is an error (exit 3); with --keep-going
                         it is a warning, and the scan reports it as a finding
      --max-files N, --max-file-bytes N, --max-bytes N, --max-findings N, --max-engine-ms N
                         scan limits per repository (defaults 2000 files, 1048576 bytes a file, 67108864
                         bytes in all, 50000 findings, 120000 ms); over one, the scan goes up to it and an
                         INFO scan-limit-reached finding names what was skipped
      --jobs N           scan up to N repositories at once, each on a thread of its own (default: the number of
                         cores, at most 4; N at most 16; 1 scans them one after the other in one thread); the
                         report is the same whatever N. Standard input (-) is always scanned in one thread
      --online           also run the online audits (impostor-commit, ref-confusion, stale-action-ref,
                         ref-version-mismatch, and known-vulnerable-action live from the GitHub Advisory
                         Database): ask GitHub about each action a workflow uses, with the token
                         in GITHUB_TOKEN, spending at most 10% of its remaining hourly rate limit; facts are
                         cached in $XDG_CACHE_HOME/chainbreaker/online.json (default ~/.cache/...). What
                         could not be checked is reported as online-audit-incomplete, never as clean
  -h, --help             show this help

Suppress a finding with "# chainbreaker: ignore[rule-a,rule-b]" (or a bare "ignore") on its line, or alone
on the line above it.

${EXIT_CODES}
`;

const RULES_HELP = `Usage: chainbreaker rules [rule-id] [--format text|json]

Lists the rule catalog; the JSON is { "rules": [...] } with the fields of GET /api/rules.
With a rule id, prints that rule's documentation (Markdown; --format json: its catalog entry).
`;

const BASELINE_HELP = `Usage: chainbreaker baseline [path ...] [-o FILE] [--reason R [--comment TEXT]] [scan options]

Scans like "chainbreaker scan" and records every current finding by its line-independent fingerprint in
FILE (default ${BASELINE_FILE}). Commit it; then "chainbreaker scan --baseline ${BASELINE_FILE}"
reports and fails only on findings that are not in it. Inserting lines above a finding or renaming an
unrelated job does not make it new. Takes the options of scan except --format, --baseline and --fail-on.

  --reason R         record why, the triage decision of the web client: ${DISMISSAL_REASONS.join(', ')}
  --comment TEXT     with --reason, a free-text note (at most 1000 characters)
The decisions FILE already records for the same findings are kept. The web client's Findings view
downloads a repository's dismissals as such a file and imports one.
`;

const COMBINATIONS_HELP = `Usage: chainbreaker combinations [--format text|json] [--ruleset all|owasp] [--disable IDS]

Lists the kinds of attack paths (toxic combinations): what each requires, what amplifies it, and the rule
whose fix breaks the chain. With --ruleset or --disable, marks the kinds that cannot fire.
The JSON is { "kinds": [...], "cannot_fire": [...] }.
`;

export async function main(io: CliIO): Promise<number> {
  try {
    const [command, ...rest] = io.argv;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      (command === undefined ? io.stderr : io.stdout).write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    }
    if (command === '-v' || command === '--version') {
      io.stdout.write(`${await version()}\n`);
      return EXIT.ok;
    }
    switch (command) {
      case 'scan':
        return await scan(rest, io);
      case 'baseline':
        return await baseline(rest, io);
      case 'rules':
        return await rules(rest, io);
      case 'combinations':
        return combinations(rest, io);
      default:
        throw new UsageError(
          command.startsWith('-') ? `a command must come first, before ${command}` : `unknown command "${command}"${didYouMean(command, ['scan', 'baseline', 'rules', 'combinations'])}`,
        );
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof BaselineError) {
      // One line, one style for every usage error: what is wrong, with the closest known name for a typo.
      io.stderr.write(`chainbreaker: ${error.message}${error instanceof UsageError ? '; run "chainbreaker --help" for usage' : ''}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`chainbreaker: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.operational;
  }
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse<O extends Options>(args: readonly string[], options: O, positionals = false) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: positionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    if (unknown === '--pedantic') throw new UsageError('--pedantic is no longer needed: every rule runs by default, and the text report summarizes LOW and INFO findings (--verbose lists them)');
    const known = Object.keys(options ?? {}).map((name) => `--${name}`);
    if (unknown !== undefined) throw new UsageError(`unknown option ${unknown}${didYouMean(unknown, known)}`);
    // node:util's other messages, in the style of ours: the option first, then what is wrong with it.
    const missing = /^Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message)?.[1];
    if (missing !== undefined) throw new UsageError(`${missing} needs a value`);
    // `--jobs -1`: node:util reads -1 as an option and explains over three lines.
    const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(message)?.[1];
    if (ambiguous !== undefined) throw new UsageError(`${ambiguous} is followed by an option, not a value (a value that starts with - is written ${ambiguous}=VALUE)`);
    const noValue = /^Option '(?:-\w, )?(--[\w-]+)[^']*' does not take an argument/.exec(message)?.[1];
    if (noValue !== undefined) throw new UsageError(`${noValue} takes no value`);
    const positional = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
    if (positional !== undefined) throw new UsageError(`unexpected argument "${positional}": this command takes none`);
    throw new UsageError(message.replace(/\.$/, ''));
  }
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")${didYouMean(value, allowed)}`);
  return found;
}

const RULE_IDS = CATALOG.map((r) => r.id);

function disabledRules(values: readonly string[] | undefined): Set<string> {
  const ids = (values ?? []).flatMap((v) => v.split(',')).map((id) => id.trim()).filter((id) => id !== '');
  const unknown = ids.filter((id) => !isKnownRule(id));
  if (unknown.length > 0) {
    throw new UsageError(`--disable: unknown rule id${unknown.length === 1 ? '' : 's'} ${unknown.map((id) => `${id}${didYouMean(id, RULE_IDS)}`).join(', ')} (see "chainbreaker rules")`);
  }
  return new Set(ids);
}

const FAIL_ON = ['critical', ...SEVERITIES.map((s) => s.toLowerCase()), 'none'] as const;
const MIN_SEVERITY = SEVERITIES.map((s) => s.toLowerCase());

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The default of --jobs: the cores the process may use, at most this many (each thread compiles the engine anew). */
const MAX_DEFAULT_JOBS = 4;
/** `--jobs` at most: each thread is a V8 isolate of its own (tens of MB), so the count is bounded whatever is asked. */
const MAX_JOBS = 16;

/** What a repository carries to a scanning thread besides its name and files, without the absent fields. */
function optional(repository: Omit<RepositoryInput, 'display' | 'name' | 'files'>): Omit<RepositoryInput, 'display' | 'name' | 'files'> {
  return {
    ...(repository.settings === undefined ? {} : { settings: repository.settings }),
    ...(repository.fullName === undefined ? {} : { fullName: repository.fullName }),
    ...(repository.defaultBranch === undefined ? {} : { defaultBranch: repository.defaultBranch }),
    ...(repository.extraRecords === undefined ? {} : { extraRecords: repository.extraRecords }),
  };
}

/** The CLI's scan limits: higher than the service's (a local run is the user's own machine), still bounded. */
const CLI_SCAN_LIMITS = { maxFiles: 2_000, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024, maxFindings: 50_000, maxEngineMs: 120_000 } as const;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d{0,11}$/.test(value)) throw new UsageError(`--${name} must be a positive whole number (got "${value}")`);
  return Number(value);
}

/**
 * The options shared by `scan` and `baseline` (what is read and how it is scanned). Options that only
 * `scan` takes are in SCAN_ONLY. To add an option: declare it here (or there), then read it in `readScan`.
 */
const SOURCE_OPTIONS = {
  config: { type: 'string', short: 'c' },
  ruleset: { type: 'string' },
  disable: { type: 'string', multiple: true },
  settings: { type: 'string', multiple: true },
  github: { type: 'string', multiple: true },
  online: { type: 'boolean' },
  'min-severity': { type: 'string' },
  'max-files': { type: 'string' },
  'max-file-bytes': { type: 'string' },
  'max-bytes': { type: 'string' },
  'max-findings': { type: 'string' },
  'max-engine-ms': { type: 'string' },
  jobs: { type: 'string' },
  'keep-going': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SCAN_ONLY = {
  fix: { type: 'string' },
  format: { type: 'string', short: 'f', default: 'text' },
  'fail-on': { type: 'string' },
  verbose: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  baseline: { type: 'string' },
} as const;

type SourceValues = { [K in keyof typeof SOURCE_OPTIONS]?: (typeof SOURCE_OPTIONS)[K] extends { multiple: true } ? string[] : (typeof SOURCE_OPTIONS)[K] extends { type: 'boolean' } ? boolean : string };

/** Reads the config, the targets and the settings, and scans: everything `scan` and `baseline` share. */
async function readScan(
  values: SourceValues,
  positionals: readonly string[],
  io: CliIO,
): Promise<{ report: Report; config: Config; configDir: string; configFromCheckout: boolean; docUrl: (id: string) => string; textDocs: ((id: string) => string) | undefined; kindDocUrl: ((id: string) => string) | undefined }> {
  const githubRepositories = values.github ?? [];
  const paths = positionals.length > 0 || githubRepositories.length > 0 ? positionals : ['.'];
  const { config, dir: configDir, fromCheckout: configFromCheckout = false } = await loadConfig(values.config, paths[0], io);
  const ruleset: Ruleset = oneOf('ruleset', values.ruleset ?? config.ruleset ?? 'all', ['all', 'owasp'] as const);
  const disabled = new Set([...configDisabled(config), ...disabledRules(values.disable)]);
  const settingsFiles = values.settings ?? [];
  if (settingsFiles.length > 0 && settingsFiles.length !== paths.length) {
    throw new UsageError(`--settings: give one snapshot per repository path, in the same order (${paths.length} paths, ${settingsFiles.length} snapshots)`);
  }
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('- (standard input) can be given only once');
  const githubToken = githubRepositories.length > 0 ? tokenFor(githubRepositories, io) : '';
  const onlineToken = values.online === true ? onlineTokenFor(io) : '';
  const ignored = globMatcher(config.ignore ?? []);

  const limits = {
    maxFiles: positive('max-files', values['max-files'], CLI_SCAN_LIMITS.maxFiles),
    maxFileBytes: positive('max-file-bytes', values['max-file-bytes'], CLI_SCAN_LIMITS.maxFileBytes),
    maxTotalBytes: positive('max-bytes', values['max-bytes'], CLI_SCAN_LIMITS.maxTotalBytes),
    maxFindings: positive('max-findings', values['max-findings'], CLI_SCAN_LIMITS.maxFindings),
    maxEngineMs: positive('max-engine-ms', values['max-engine-ms'], CLI_SCAN_LIMITS.maxEngineMs),
  };
  const jobs = positive('jobs', values.jobs, Math.min(availableParallelism(), MAX_DEFAULT_JOBS));
  if (jobs > MAX_JOBS) throw new UsageError(`--jobs: at most ${MAX_JOBS} scanning threads (got ${jobs})`);
  const options: ReportOptions = { ruleset, disabled, severities: configSeverities(config), ruleOptions: configRuleOptions(config), online: values.online === true, limits };
  const count = paths.length + githubRepositories.length;
  const builder = new ReportBuilder(options, count > 1);
  // Several repositories and --jobs above 1: scanned on a pool of threads (never more than repositories), merged
  // here in their order. Reading stays in this thread and in order, so warnings come as they would from one thread.
  const workers = Math.min(jobs, count);
  const pool = workers > 1 && io.scanPool !== undefined ? io.scanPool({ size: workers, options, budgetMs: limits.maxEngineMs }) : null;
  try {
    // Repositories read and not yet merged, in order: at most two per thread, so memory stays bounded however many
    // repositories there are, and each thread has its next repository waiting when it finishes one.
    const scanning: { repository: Pick<RepositoryInput, 'name' | 'display'>; part: Promise<RepositoryReport> }[] = [];
    const mergeNext = async () => {
      const next = scanning.shift();
      if (next !== undefined) builder.merge(next.repository, await next.part);
    };
    const scanOne = async (repository: RepositoryInput) => {
      if (pool === null) {
        io.watch?.(limits.maxEngineMs);
        builder.add(repository);
        io.watch?.(null);
        return;
      }
      const part = pool.scan({ name: repository.name, files: repository.files, ...optional(repository) });
      // Awaited in order by mergeNext; a failure fails the command there, never as an unhandled rejection.
      part.catch(() => undefined);
      // Only what the merge needs is kept: the files go with the thread that scans them.
      scanning.push({ repository: { name: repository.name, ...(repository.display === undefined ? {} : { display: repository.display }) }, part });
      while (scanning.length >= 2 * workers) await mergeNext();
    };
    // The online audits ask GitHub about all repositories together, so they need every repository read
    // first; otherwise each repository is scanned as soon as it is read and only its findings are kept.
    const online: RepositoryInput[] | null = values.online === true ? [] : null;
    const add = async (repository: RepositoryInput) => {
      if (online === null) await scanOne(repository);
      else online.push(repository);
    };
    for (const [i, path] of paths.entries()) {
      const settingsFile = settingsFiles[i];
      const warn = (line: string) => io.stderr.write(`${line}\n`);
      const repository = path === '-' ? await readStdin(io) : await readLocalTarget(resolve(io.cwd, path), path, warn, githubHostOf(io.env.GITHUB_API_URL));
      if (repository.single !== undefined) checkNamedFile(repository.single, limits.maxFileBytes, values['keep-going'] === true, warn);
      repository.files = repository.files.filter((f) => !ignored(f.path));
      if (settingsFile !== undefined) repository.settings = await readSettings(resolve(io.cwd, settingsFile), settingsFile);
      if (repository.files.every((f) => classifyPath(f.path) === null)) io.stderr.write(`chainbreaker: no workflow, action or Dependabot file found in ${path}\n`);
      await add(repository);
    }
    for (const fullName of githubRepositories) await add(await readGitHubRepository(fullName, githubToken, io));
    if (online !== null) {
      await auditOnline(online, onlineToken, enabledRules({ ruleset, disabled }), io);
      for (const repository of online) await scanOne(repository);
    }
    while (scanning.length > 0) await mergeNext();
  } catch (error) {
    await pool?.terminate();
    throw error;
  }
  await pool?.close();
  const report = builder.finish();
  if (report.unknownSuppressions.length > 0) {
    const lines = report.unknownSuppressions.flatMap((u) =>
      u.rules === 'all' ? [] : u.rules.map((id) => `${neutralize(u.file)}:${u.line}: the suppression comment names unknown rule "${neutralize(id)}"${didYouMean(id, RULE_IDS)}`),
    );
    throw new UsageError(lines.join('\nchainbreaker: '));
  }
  const minSeverity = values['min-severity'] ?? config['min-severity'];
  const narrowed = minSeverity === undefined ? report : narrowReport(report, { minSeverity: oneOf('min-severity', minSeverity.toLowerCase(), MIN_SEVERITY).toUpperCase() as Severity });
  // Links point at what exists for this version: a configured docs URL (the service's /rules/{id} pages), else
  // the rule docs in the repository at this release's tag; the text report names the command that prints the
  // docs shipped with the scanner instead, unless a docs URL is configured.
  const configured = config['docs-url'];
  const docUrl = docUrlFrom(configured ?? (await releaseDocsUrl('lib/engine/rules/{id}.md')));
  // The kinds of attack paths are documented in the repository only (the combinations catalog, one heading each).
  const kinds = await releaseDocsUrl('lib/engine/combinations/README.md#{id}');
  return { report: narrowed, config, configDir, configFromCheckout, docUrl, textDocs: configured === undefined ? undefined : docUrl, kindDocUrl: kinds.startsWith('https://') ? docUrlFrom(kinds) : undefined };
}

async function scan(args: readonly string[], io: CliIO): Promise<number> {
  // A bare `--fix` means the safe fixes (parseArgs has no optional values).
  const { values, positionals } = parse(args.map((a) => (a === '--fix' ? '--fix=safe' : a)), { ...SOURCE_OPTIONS, ...SCAN_ONLY }, true);
  if (values.help === true) {
    io.stdout.write(SCAN_HELP);
    return EXIT.ok;
  }
  const format: ReportFormat = oneOf('format', values.format, REPORT_FORMATS);
  if (values.fix !== undefined && (await fix(values, positionals, io)) === 'diff') return EXIT.ok;
  const { report: scanned, config, configDir, configFromCheckout, docUrl, textDocs, kindDocUrl } = await readScan(values, positionals, io);
  const failOnValue = oneOf('fail-on', (values['fail-on'] ?? config['fail-on'] ?? 'high').toLowerCase(), FAIL_ON);
  const failOn: FailOn = failOnValue === 'none' ? 'none' : (failOnValue.toUpperCase() as FailOn);
  // --baseline is the user's; a baseline a checkout's config names is the repository's: a plain relative path
  // inside the checkout, read through no link (an absolute or `..` path is refused).
  const baseline =
    values.baseline !== undefined
      ? await readBaseline({ path: resolve(io.cwd, values.baseline) }, values.baseline)
      : config.baseline === undefined
        ? undefined
        : await readBaseline(configFromCheckout ? { checkout: configDir, relative: checkoutRelative(config.baseline) } : { path: resolve(configDir, config.baseline) }, config.baseline);
  const report = baseline === undefined ? scanned : narrowReport(scanned, { baseline });
  const toStdout = values.output === undefined;
  const color = format === 'text' && toStdout && useColor(io);
  const verdict = gate(report, failOn);
  // LOW and INFO are summarized unless asked for: --verbose, or a --min-severity the user chose.
  const listed = values.verbose === true || (values['min-severity'] ?? config['min-severity']) !== undefined ? new Set(SEVERITIES) : undefined;
  const text = formatReport(format, report, { color, toolVersion: await version(), docUrl, textDocs, kindDocUrl, width: reportWidth(io, toStdout), listed, gate: verdict.reason, verbose: values.verbose === true });
  if (values.output === undefined) io.stdout.write(text);
  else await writeOutput(resolve(io.cwd, values.output), values.output, text);
  // The text report lists unused suppressions itself; other formats are for machines, so say it aside.
  if (format !== 'text' || !toStdout) {
    for (const u of report.unusedSuppressions) {
      io.stderr.write(`chainbreaker: ${neutralize(u.file)}:${u.line}: suppression comment ${u.rules === 'all' ? 'ignore' : `ignore[${u.rules.map(neutralize).join(',')}]`} matched no finding\n`);
    }
  }
  return verdict.fails ? EXIT.findings : EXIT.ok;
}

/** `scan --fix[=safe|unsafe|diff]`: fixes local checkouts (lib/fix/run.ts) before they are scanned. */
async function fix(values: SourceValues & { fix?: string }, positionals: readonly string[], io: CliIO): Promise<'safe' | 'unsafe' | 'diff'> {
  const mode = oneOf('fix', values.fix ?? 'safe', ['safe', 'unsafe', 'diff'] as const);
  if ((values.github ?? []).length > 0) throw new UsageError('--fix works on local checkouts, not with --github');
  const paths = positionals.length > 0 ? positionals : ['.'];
  if (paths.includes('-')) throw new UsageError('--fix works on local checkouts, not on standard input');
  const { config } = await loadConfig(values.config, paths[0], io);
  const ruleset: Ruleset = oneOf('ruleset', values.ruleset ?? config.ruleset ?? 'all', ['all', 'owasp'] as const);
  const disabled = new Set([...configDisabled(config), ...disabledRules(values.disable)]);
  const isEnabled = enabledRules({ disabled });
  const { fixCheckout, formatFixSummary } = await import('../lib/fix/run.js');
  const dryRun = mode === 'diff';
  for (const path of paths) {
    let outcome;
    try {
      outcome = await fixCheckout(resolve(io.cwd, path), {
        mode: mode === 'unsafe' ? 'unsafe' : 'safe',
        dryRun,
        ruleset,
        isEnabled,
        ruleOptions: configRuleOptions(config),
        env: io.env,
        maxEngineMs: positive('max-engine-ms', values['max-engine-ms'], CLI_SCAN_LIMITS.maxEngineMs),
        ...(io.watch === undefined ? {} : { watch: io.watch }),
      });
    } catch (error) {
      throw new OperationalError(`cannot fix ${path}: ${reason(error)}`, { cause: error });
    }
    io.stderr.write(formatFixSummary(path, outcome, dryRun));
    if (dryRun) io.stdout.write(paths.length > 1 ? outcome.diff.replace(/^(---|\+\+\+) ([ab])\//gm, `$1 $2/${path.replace(/\/+$/, '')}/`) : outcome.diff);
  }
  return mode;
}

async function baseline(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...SOURCE_OPTIONS, output: { type: 'string', short: 'o' }, reason: { type: 'string' }, comment: { type: 'string' } }, true);
  if (values.help === true) {
    io.stdout.write(BASELINE_HELP);
    return EXIT.ok;
  }
  const all = decisionOption(values.reason, values.comment);
  const { report } = await readScan(values, positionals, io);
  const output = values.output ?? BASELINE_FILE;
  // The decisions an existing baseline at the output records stay with their findings.
  const existing = await readBoundedFile(resolve(io.cwd, output), MAX_BASELINE_BYTES).catch(() => null);
  let byKey: Map<string, BaselineDecision> | undefined;
  if (existing !== null) {
    try {
      byKey = baselineDecisions(existing, output);
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      io.stderr.write(`chainbreaker: ${error.message}; its decisions are not kept\n`);
    }
  }
  await writeOutput(resolve(io.cwd, output), output, formatBaseline(report, await version(), { ...(byKey === undefined ? {} : { byKey }), ...(all === undefined ? {} : { all }) }));
  io.stderr.write(`chainbreaker: recorded ${report.records.length} finding${report.records.length === 1 ? '' : 's'} in ${output}\n`);
  return EXIT.ok;
}

/** `--reason` and `--comment` as a decision, checked (a usage error otherwise). */
function decisionOption(reasonValue: string | undefined, comment: string | undefined): BaselineDecision | undefined {
  if (reasonValue === undefined) {
    if (comment !== undefined) throw new UsageError('baseline: --comment needs --reason');
    return undefined;
  }
  if (!(DISMISSAL_REASONS as readonly string[]).includes(reasonValue)) {
    throw new UsageError(`baseline: --reason must be one of ${DISMISSAL_REASONS.join(', ')}${didYouMean(reasonValue.slice(0, 100), DISMISSAL_REASONS)}`);
  }
  if (comment !== undefined && comment.length > 1000) throw new UsageError('baseline: --comment must be at most 1000 characters');
  return { reason: reasonValue as DismissalReason, ...(comment === undefined || comment === '' ? {} : { comment }) };
}

/** A baseline path named by a checkout's config: relative, inside it (no absolute path, no `..`). */
function checkoutRelative(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || parts.includes('..')) {
    throw new UsageError(`baseline: the config in the checkout names ${JSON.stringify(neutralize(path.slice(0, 200)))}; a checkout's config may name only a path inside the checkout (relative, without ..)`);
  }
  return parts.filter((p) => p !== '' && p !== '.').join('/');
}

async function readBaseline(where: { path: string } | { checkout: string; relative: string }, name: string): Promise<Set<string>> {
  let text: string | null;
  try {
    text = 'path' in where ? await readBoundedFile(where.path, MAX_BASELINE_BYTES) : await readInCheckout(where.checkout, where.relative, MAX_BASELINE_BYTES);
    if (text === null) throw new Error('no such file');
  } catch (error) {
    throw new OperationalError(`cannot read baseline ${name}: ${reason(error)} (write one with "chainbreaker baseline -o ${name}")`);
  }
  return parseBaseline(text, name);
}

/** `--config FILE`, else `.chainbreaker.yml` at the root of the first local path (a directory), if there. */
async function loadConfig(explicit: string | undefined, firstPath: string | undefined, io: CliIO): Promise<{ config: Config; dir: string; fromCheckout?: boolean }> {
  let path: string;
  let name: string;
  if (explicit !== undefined) {
    path = resolve(io.cwd, explicit);
    name = explicit;
  } else {
    const root = firstPath === undefined || firstPath === '-' ? io.cwd : resolve(io.cwd, firstPath);
    const isDirectory = await stat(root).then((s) => s.isDirectory(), () => false);
    const dir = isDirectory ? root : dirname(root);
    // .chainbreaker.yml, or .chainbreaker.yaml as the same file; both would be ambiguous.
    const exists = async (file: string) => stat(resolve(dir, file)).then(() => true, () => false);
    const [yml, yaml] = await Promise.all([exists(CONFIG_FILE), exists(CONFIG_FILE_YAML)]);
    const file = !yml && yaml ? CONFIG_FILE_YAML : CONFIG_FILE;
    path = resolve(dir, file);
    name = firstPath === undefined || firstPath === '-' || firstPath === '.' ? file : `${isDirectory ? firstPath.replace(/\/+$/, '') : dirname(firstPath)}/${file}`;
    if (yml && yaml) throw new UsageError(`both ${CONFIG_FILE} and ${CONFIG_FILE_YAML} are in ${dirname(name) === '.' ? 'this directory' : dirname(name)}: keep one`);
    // No config there, not even a link (a dangling one is refused by the reader): nothing to read, so the checkout's
    // file reader (lib/fix/safe-fs.ts, which loads node:crypto and its streams) is not loaded on a scan without one.
    if (!yml && !yaml && (await lstat(path).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ENOENT'))) return { config: {}, dir: io.cwd };
  }
  let text: string;
  try {
    // A config found in the checkout is the repository's: read only a regular file inside the checkout,
    // through no link, bounded. One named with --config is the user's choice: bounded only.
    const read = explicit === undefined ? await readInCheckout(dirname(path), basename(path), MAX_CONFIG_BYTES) : await readBoundedFile(path, MAX_CONFIG_BYTES);
    if (read === null) return { config: {}, dir: io.cwd };
    text = read;
  } catch (error) {
    throw new OperationalError(`cannot read config ${name}: ${reason(error)}`);
  }
  return { config: parseConfig(text, name), dir: dirname(path), fromCheckout: explicit === undefined };
}

/** The largest config file read. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** The largest baseline file read. */
const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/** A regular file of a checkout (`name` in its directory `dir`), not a link, at most `maxBytes`; null when absent. */
async function readInCheckout(dir: string, name: string, maxBytes: number): Promise<string | null> {
  const { readInside } = await import('../lib/fix/safe-fs.js');
  let real: string;
  try {
    real = await realpath(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return readInside(real, name, maxBytes);
}

/** A file the user named, at most `maxBytes` (an error past it). */
async function readBoundedFile(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(1, (await handle.stat()).size + 1)));
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      length += bytesRead;
      if (bytesRead === 0 || length === buffer.length) break;
    }
    if (length > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function rules(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { format: { type: 'string', short: 'f', default: 'text' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help === true) {
    io.stdout.write(RULES_HELP);
    return EXIT.ok;
  }
  const format = oneOf('format', values.format, ['text', 'json'] as const);
  if (positionals.length > 1) throw new UsageError(`rules takes at most one rule id (got ${positionals.length})`);
  const id = positionals[0];
  if (id === undefined) {
    io.stdout.write(format === 'json' ? formatRulesJson(CATALOG) : formatRulesText(CATALOG));
    return EXIT.ok;
  }
  const entry = CATALOG.find((r) => r.id === id);
  if (entry === undefined) throw new UsageError(`unknown rule id "${id}"${didYouMean(id, RULE_IDS)} (see "chainbreaker rules")`);
  io.stdout.write(format === 'json' ? `${JSON.stringify(entry, null, 2)}\n` : await ruleDoc(id));
  return EXIT.ok;
}

/** A rule's Markdown doc: dist/rules/ beside the bundle, or lib/engine/rules/ when run from the sources. */
async function ruleDoc(id: string): Promise<string> {
  for (const candidate of [`./rules/${id}.md`, `../lib/engine/rules/${id}.md`]) {
    try {
      return await readFile(new URL(candidate, import.meta.url), 'utf8');
    } catch {
      // Try the next place.
    }
  }
  throw new OperationalError(`the documentation of ${id} is missing from this installation`);
}

function combinations(args: readonly string[], io: CliIO): number {
  const { values } = parse(args, {
    format: { type: 'string', short: 'f', default: 'text' },
    ruleset: { type: 'string', default: 'all' },
    disable: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    io.stdout.write(COMBINATIONS_HELP);
    return EXIT.ok;
  }
  const format = oneOf('format', values.format, ['text', 'json'] as const);
  const ruleset = oneOf('ruleset', values.ruleset, ['all', 'owasp'] as const);
  const blocked = cannotFire(enabledRules({ ruleset, disabled: disabledRules(values.disable) }));
  io.stdout.write(format === 'json' ? formatKindsJson(COMBINATION_KINDS, blocked) : formatKindsText(COMBINATION_KINDS, blocked));
  return EXIT.ok;
}

/** The text report's width: the terminal's, else $COLUMNS, else 80 (a CI log, a file). */
function reportWidth(io: CliIO, toStdout: boolean): number {
  const columns = toStdout && io.stdout.isTTY === true ? io.stdout.columns : undefined;
  if (columns !== undefined && columns > 0) return columns;
  const fromEnv = Number(io.env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv >= 40 && fromEnv <= 1000 ? fromEnv : 80;
}

/** Colours for people: only on a terminal, never with NO_COLOR set (https://no-color.org); FORCE_COLOR wins. */
function useColor(io: CliIO): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0') return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdout.isTTY === true;
}

/**
 * A local scan target: a repository checkout (a directory), or a single workflow, action or Dependabot
 * file, scanned as the engine would read it at its place in a repository and reported under the path given.
 */
async function readLocalTarget(path: string, name: string, warn: (line: string) => void, githubHost?: string): Promise<LocalTarget> {
  let isDirectory: boolean;
  try {
    // Synchronous, like the checkout reader's own calls: a promise is a round trip through libuv's thread pool
    // per repository, which a scan of many checkouts waited on for longer than the call takes.
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new OperationalError(`cannot read ${name}: ${reason(error)}`);
  }
  try {
    if (isDirectory) {
      const warnings: string[] = [];
      const files = await collectRepositoryFiles(path, { warnings });
      // Paths are the repository's: control characters never reach the terminal.
      for (const warning of warnings) warn(`chainbreaker: ${name}: ${warning}`.replace(CONTROL_CHARACTERS, '?'));
      const fullName = await originRepository(path, githubHost);
      const defaultBranch = await originDefaultBranch(path);
      return { name, files, ...(fullName === null ? {} : { fullName }), ...(defaultBranch === null ? {} : { defaultBranch }) };
    }
    if (!/\.ya?ml$/i.test(path)) throw new UsageError(`${name} is neither a directory nor a workflow or action file (.yml or .yaml)`);
    return singleFile(name, await readBounded(path));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new OperationalError(`cannot read ${name}: ${reason(error)}`);
  }
}

/** `-`: one workflow on standard input, reported as `<stdin>`. */
async function readStdin(io: CliIO): Promise<LocalTarget> {
  if (io.stdin === undefined) throw new UsageError('- reads a workflow from standard input, which is not available here');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    size += buffer.length;
    // One byte past the engine's limit is enough for it to report the file as too large.
    if (size > MAX_FILE_BYTES) break;
  }
  return singleFile('<stdin>', Buffer.concat(chunks).subarray(0, MAX_FILE_BYTES + 1).toString('utf8'), 'workflow');
}

/** A scan target: a repository, or a single file named on the command line (`single`), which must be scannable. */
type LocalTarget = RepositoryInput & { single?: { name: string; kind: 'workflow' | 'action' | 'dependabot'; text: string } };

/** A single file as the engine reads it: an action by its name, Dependabot config by its place, else a workflow. */
function singleFile(name: string, text: string, kind?: 'workflow'): LocalTarget {
  const file = basename(name);
  const normalized = name.replace(/\\/g, '/');
  const as: 'workflow' | 'action' | 'dependabot' =
    kind === undefined && /^action\.ya?ml$/.test(file) ? 'action' : kind === undefined && /(^|\/)\.github\/dependabot\.ya?ml$/.test(normalized) ? 'dependabot' : 'workflow';
  const enginePath = as === 'action' ? file : as === 'dependabot' ? `.github/${file}` : `.github/workflows/${/\.ya?ml$/.test(file) ? file : 'input.yml'}`;
  const files: RepositoryFile[] = [{ path: enginePath, text }];
  // Findings are reported under the path as given, and so is any other mention of the file.
  return { name, files, display: (path) => (path === enginePath ? name : path), single: { name, kind: as, text } };
}

/**
 * A file named on the command line is what the user asked to scan: one that is over the size limit, not YAML,
 * or not a workflow, action or Dependabot file is an error naming it (exit 3), not a finding about a file the
 * user never named. With --keep-going it is a warning, and the scan reports it as the engine does.
 */
function checkNamedFile(file: NonNullable<LocalTarget['single']>, maxBytes: number, keepGoing: boolean, warn: (line: string) => void): void {
  const problem = namedFileProblem(file, maxBytes);
  if (problem === null) return;
  const message = `${neutralize(file.name)}: ${problem}`;
  if (!keepGoing) throw new OperationalError(`${message} (--keep-going scans it anyway and reports it as a finding)`);
  warn(`chainbreaker: ${message}`);
}

function namedFileProblem(file: NonNullable<LocalTarget['single']>, maxBytes: number): string | null {
  const bytes = Buffer.byteLength(file.text, 'utf8');
  if (bytes > maxBytes) return `larger than ${maxBytes} bytes, the limit for one file (raise it with --max-file-bytes)`;
  const document = parseDocument(file.text, { prettyErrors: true, uniqueKeys: false });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0].line;
    const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return `not valid YAML${line === undefined ? '' : ` (line ${line}: ${what})`}`;
  }
  const root = document.contents;
  const keys = isMap(root) ? new Set(root.items.map((item) => (isScalar(item.key) ? String(item.key.value) : ''))) : new Set<string>();
  const wanted = file.kind === 'action' ? ['runs'] : file.kind === 'dependabot' ? ['updates'] : ['jobs'];
  if (wanted.some((key) => keys.has(key))) return null;
  const what = file.kind === 'action' ? 'an action definition (no `runs:`)' : file.kind === 'dependabot' ? 'a Dependabot configuration (no `updates:`)' : 'a GitHub Actions workflow (no `jobs:`)';
  return `not ${what}`;
}

/** `--github` needs well-formed names and a token; both are checked before anything is read. */
function tokenFor(fullNames: readonly string[], io: CliIO): string {
  for (const fullName of fullNames) {
    if (!/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(fullName)) throw new UsageError(`--github: "${fullName}" is not a repository name (owner/repo)`);
  }
  const token = io.env.GITHUB_TOKEN?.trim() ?? '';
  if (token === '') throw new UsageError('--github needs a token in GITHUB_TOKEN (for instance GITHUB_TOKEN=$(gh auth token))');
  return token;
}

/** `--online` needs a token (the audits read public facts, but anonymous requests get 60 an hour). */
function onlineTokenFor(io: CliIO): string {
  const token = io.env.GITHUB_TOKEN?.trim() ?? '';
  if (token === '') throw new UsageError('--online needs a token in GITHUB_TOKEN (for instance GITHUB_TOKEN=$(gh auth token))');
  return token;
}

/**
 * `--online`: the online audits of every repository's files, one budget for the whole run and the disk
 * cache (lib/online is loaded only here). The findings join each repository's report like the engine's.
 */
async function auditOnline(repositories: RepositoryInput[], token: string, isEnabled: (ruleId: string) => boolean, io: CliIO): Promise<void> {
  const online = await import('../lib/online/index.js');
  const baseUrl = io.env.GITHUB_API_URL?.trim();
  const reader = new online.BudgetedReader(online.fetchReader({ token, baseUrl: baseUrl === '' ? undefined : baseUrl }));
  const path = online.defaultCachePath(io.env);
  const disk = path === null ? null : new online.DiskCache(path);
  const cache = disk ?? new online.MemoryCache();
  let unassessed = 0;
  for (const repository of repositories) {
    try {
      const result = await online.auditRepository(repository.files, { reader, cache, isEnabled });
      repository.extraRecords = result.records;
      unassessed += result.unassessed;
    } catch (error) {
      throw new OperationalError(`online audits of ${repository.name}: ${reason(error)}`);
    }
  }
  try {
    await disk?.save();
  } catch (error) {
    io.stderr.write(`chainbreaker: could not write the online cache: ${reason(error)}\n`);
  }
  const queries = reader.graphqlRequests === 0 ? '' : ` (${reader.graphqlRequests} GraphQL quer${reader.graphqlRequests === 1 ? 'y' : 'ies'})`;
  io.stderr.write(`chainbreaker: online audits: ${reader.requests} GitHub request${reader.requests === 1 ? '' : 's'}${queries}${unassessed > 0 ? `, ${unassessed} reference${unassessed === 1 ? '' : 's'} unassessed (see online-audit-incomplete)` : ''}\n`);
}

/**
 * A repository on GitHub as a scan source, read with the service's own snapshot fetch (the GitHub adapter,
 * loaded only here), so the CLI and the API report the same findings for the same repository.
 */
async function readGitHubRepository(fullName: string, token: string, io: CliIO): Promise<RepositoryInput> {
  const [{ fetchSnapshotWithToken }, { CodeHostError }] = await Promise.all([import('../lib/codehost/github/token.js'), import('../lib/codehost/port.js')]);
  const baseUrl = io.env.GITHUB_API_URL?.trim();
  try {
    const snapshot = await fetchSnapshotWithToken({ token, fullName, baseUrl: baseUrl === '' ? undefined : baseUrl });
    return { name: fullName, fullName, files: snapshot.files, settings: snapshot.settings };
  } catch (error) {
    if (!(error instanceof CodeHostError)) throw error;
    const reason = error.message.replace(/^repository [^:]+: /, '');
    const hint =
      error.kind === 'not_found'
        ? ' (check the name, and that GITHUB_TOKEN can read the repository)'
        : error.kind === 'rate_limited' && error.retryAfter !== undefined
          ? ` (retry in ${error.retryAfter} s)`
          : error.kind === 'forbidden'
            ? ' (check that GITHUB_TOKEN is valid and can read the repository)'
            : '';
    throw new OperationalError(`cannot read GitHub repository ${fullName}: ${reason}${hint}`);
  }
}

/** The keys a snapshot may have (the compiler keeps this in step with SettingsSnapshot). */
const SNAPSHOT_KEYS: Record<keyof SettingsSnapshot, true> = {
  repository: true,
  branch_protection: true,
  branch_rules: true,
  rulesets: true,
  actions_permissions: true,
  workflow_permissions: true,
  fork_pr_approval: true,
  vulnerability_alerts: true,
  runners: true,
  hooks: true,
  codeowners: true,
  environments: true,
  unreadable: true,
};

async function readSettings(path: string, name: string): Promise<SettingsSnapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new OperationalError(`cannot read settings snapshot ${name}: ${reason(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new OperationalError(`settings snapshot ${name} is not valid JSON: ${reason(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OperationalError(`settings snapshot ${name} must be a JSON object (the format: ${await releaseDocsUrl('lib/engine/settings/README.md')})`);
  }
  const unknown = Object.keys(value).find((key) => !(key in SNAPSHOT_KEYS));
  if (unknown !== undefined) {
    throw new UsageError(`settings snapshot ${name}: unknown key "${unknown}"${didYouMean(unknown, Object.keys(SNAPSHOT_KEYS))} (the format: ${await releaseDocsUrl('lib/engine/settings/README.md')})`);
  }
  // The settings rules read every field defensively: a wrong type reads as absent, never throws.
  return value as SettingsSnapshot;
}

async function writeOutput(path: string, name: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new OperationalError(`cannot write ${name}: ${reason(error)}`);
  }
}

function reason(error: unknown): string {
  if (error instanceof Error && 'code' in error) {
    const code = String(error.code);
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    if (code === 'ENOTDIR') return 'not a directory';
    if (code === 'EISDIR') return 'is a directory';
  }
  return error instanceof Error ? error.message : String(error);
}

let cachedPackage: { version: string; repository: string } | undefined;

/** The version and repository URL of package.json: compiled in by the build, read from the file under tsx. */
async function packageInfo(): Promise<{ version: string; repository: string }> {
  if (typeof __CHAINBREAKER_VERSION__ === 'string') return { version: __CHAINBREAKER_VERSION__, repository: typeof __CHAINBREAKER_REPOSITORY__ === 'string' ? __CHAINBREAKER_REPOSITORY__ : '' };
  if (cachedPackage === undefined) {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown; repository?: unknown };
    cachedPackage = { version: typeof pkg.version === 'string' ? pkg.version : '0.0.0', repository: repositoryUrl(pkg.repository) };
  }
  return cachedPackage;
}

async function version(): Promise<string> {
  return (await packageInfo()).version;
}

/** A file of the repository at this version's release tag (`{id}` stays for the rule or kind id). */
async function releaseDocsUrl(path: string): Promise<string> {
  const { version, repository } = await packageInfo();
  return repository === '' ? 'chainbreaker rules {id}' : `${repository}/blob/v${version}/${path}`;
}

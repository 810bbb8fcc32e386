/**
 * `npm run gen:examples`: runs the example repositories of `examples/` through the scanner, as the local code
 * host serves them to the service (the same files and the same settings snapshot, `.chainbreaker/settings.json`,
 * or "unreadable" without one), and writes what they report into the documentation: the table of
 * examples/README.md and the answers shown in the local walk-through of docs/api.md. The numbers there cannot
 * go stale: tests/scripts/gen-examples.test.ts regenerates both in memory and compares them with the files.
 *
 * The scan is the CLI's JSON report (`main` of bin/cli.ts); tests/e2e/client.test.ts checks that
 * `POST /api/scan` and the web client report the same findings for each example.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../bin/cli.js';
import { createLocalCodeHost, DEFAULT_LOCAL_ACCOUNT, LOCAL_INSTALLATION_ID } from '../lib/codehost/local.js';
import type { Counts } from '../lib/engine/types.js';

export const EXAMPLES_DIR = fileURLToPath(new URL('../examples/', import.meta.url));
export const EXAMPLES_README_URL = new URL('../examples/README.md', import.meta.url);
export const API_DOC_URL = new URL('../docs/api.md', import.meta.url);

export interface ExampleResult {
  name: string;
  counts: Counts;
  combinations: { id: string; severity: string }[];
  /** The attack paths with `default-token-write` turned off (the walk-through turns it off). */
  withoutDefaultTokenWrite: { id: string; severity: string }[];
  /** Whether the example carries a settings snapshot. */
  hasSnapshot: boolean;
}

export interface JsonReport {
  findings: { rule_id: string; severity: string; file: string; line: number; column: number; description: string }[];
  counts: Counts;
  combinations: { id: string; severity: string }[];
}

/** The CLI's JSON report of one example, with the settings snapshot the local code host gives the service. */
export async function scanExample(name: string, extra: readonly string[] = []): Promise<JsonReport> {
  const host = createLocalCodeHost({ dir: EXAMPLES_DIR });
  const snapshot = await host.fetchSnapshot({ installationId: LOCAL_INSTALLATION_ID, fullName: `${DEFAULT_LOCAL_ACCOUNT}/${name}`, defaultBranch: 'main' });
  const dir = mkdtempSync(join(tmpdir(), 'chainbreaker-examples-'));
  try {
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, JSON.stringify(snapshot.settings));
    // The service knows the repository's name; a checkout tells the CLI by its `origin` remote, so the copy has one.
    const checkout = join(dir, name);
    cpSync(join(EXAMPLES_DIR, name), checkout, { recursive: true });
    mkdirSync(join(checkout, '.git'));
    writeFileSync(join(checkout, '.git', 'config'), `[remote "origin"]\n\turl = https://github.com/${DEFAULT_LOCAL_ACCOUNT}/${name}.git\n`);
    let out = '';
    let err = '';
    const code = await main({
      argv: ['scan', checkout, '--settings', settings, '--format', 'json', '--fail-on', 'none', ...extra],
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      env: {},
      cwd: EXAMPLES_DIR,
    });
    if (code !== 0) throw new Error(`chainbreaker scan examples/${name} exited ${code}: ${err}`);
    return JSON.parse(out) as JsonReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function exampleNames(): string[] {
  return readdirSync(EXAMPLES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

export async function runExamples(): Promise<ExampleResult[]> {
  const results: ExampleResult[] = [];
  for (const name of exampleNames()) {
    const report = await scanExample(name);
    const without = await scanExample(name, ['--disable', 'default-token-write']);
    const paths = (r: JsonReport) => r.combinations.map((c) => ({ id: c.id, severity: c.severity }));
    const hasSnapshot = readdirSync(join(EXAMPLES_DIR, name), { recursive: true }).some((p) => String(p).replaceAll('\\', '/') === '.chainbreaker/settings.json');
    results.push({ name, counts: report.counts, combinations: paths(report), withoutDefaultTokenWrite: paths(without), hasSnapshot });
  }
  return results;
}

const START = (name: string) => `<!-- ${name}:start (npm run gen:examples) -->`;
const END = (name: string) => `<!-- ${name}:end -->`;

/** `text` with the block between the markers named `name` replaced by `content`. */
export function withBlock(text: string, name: string, content: string): string {
  const start = text.indexOf(START(name));
  const end = text.indexOf(END(name));
  if (start === -1 || end < start) throw new Error(`the markers ${START(name)} and ${END(name)} are missing`);
  return `${text.slice(0, start + START(name).length)}\n${content}\n${text.slice(end)}`;
}

const counts = (c: Counts) => `${c.HIGH} high, ${c.MEDIUM} medium, ${c.LOW} low, ${c.INFO} info`;
const paths = (list: readonly { id: string; severity: string }[]) => (list.length === 0 ? 'none' : list.map((p) => `\`${p.id}\` (${p.severity})`).join(', '));

/** The table of examples/README.md: what each example reports. */
export function examplesTable(results: readonly ExampleResult[]): string {
  const rows = results.map((r) => `| [\`${r.name}\`](${r.name}/README.md) | ${counts(r.counts)}${r.hasSnapshot ? '' : ' (INFO: no settings snapshot, so every settings area is unreadable)'} | ${paths(r.combinations)} |`);
  return ['| repository | findings | attack paths |', '|---|---|---|', ...rows].join('\n');
}

/** The answers of the walk-through in docs/api.md, as the commands there print them. */
export function walkthroughAnswers(results: readonly ExampleResult[]): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  const scanLines = results.map((r) => `# ${pad(JSON.stringify(r.counts), 44)}${r.name}${r.hasSnapshot ? '' : ' (INFO: settings not assessed, it has no snapshot)'}`);
  const bot = results.find((r) => r.name === 'issue-triage-bot');
  const sorted = (list: readonly { id: string; severity: string }[]) => list.map((c) => `# ${c.severity} ${c.id}`);
  const withPaths = results.filter((r) => r.combinations.length > 0);
  const all = results.flatMap((r) => r.combinations);
  const summary = {
    repos: withPaths.map((r) => `${DEFAULT_LOCAL_ACCOUNT}/${r.name}`),
    total_combos: all.length,
    critical_count: all.filter((c) => c.severity === 'CRITICAL').length,
    high_count: all.filter((c) => c.severity === 'HIGH').length,
  };
  return [
    '```sh',
    'for id in $(curl -s -H "$H" $B/api/repos | json \'v.repositories.map((r) => r.id).join(" ")\'); do curl -s -X POST -H "$H" -d "{\\"repo_id\\":\\"$id\\"}" $B/api/scan | json \'JSON.stringify(v.counts ?? v)\'; done',
    ...scanLines,
    'REPO=$(curl -s -H "$H" $B/api/repos | json \'v.repositories.find((r) => r.full_name === "examples/issue-triage-bot").id\')',
    'curl -s -H "$H" $B/api/repositories/$REPO/combos | json \'v.combos.map((c) => c.severity + " " + c.id).join("\\n")\'',
    ...sorted(bot?.combinations ?? []),
    'curl -s -H "$H" $B/api/attack-paths | json \'JSON.stringify({ repos: v.repos.map((r) => r.full_name), total_combos: v.total_combos, critical_count: v.critical_count, high_count: v.high_count })\'',
    `# ${JSON.stringify(summary)}`,
    'curl -s -X PUT -H "$H" -d \'{"enabled":false}\' $B/api/rule-settings/default-token-write     # 204: off for every repository',
    'curl -s -H "$H" $B/api/repositories/$REPO/combos | json \'v.combos.map((c) => c.severity + " " + c.id).join("\\n")\'',
    ...sorted(bot?.withoutDefaultTokenWrite ?? []),
    '# (combinations use the current settings: what default-token-write completed is gone without a re-scan)',
    '```',
  ].join('\n');
}

export async function generate(): Promise<{ examples: string; api: string }> {
  const results = await runExamples();
  return {
    examples: withBlock(readFileSync(EXAMPLES_README_URL, 'utf8'), 'examples', examplesTable(results)),
    api: withBlock(readFileSync(API_DOC_URL, 'utf8'), 'walkthrough', walkthroughAnswers(results)),
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { examples, api } = await generate();
  writeFileSync(EXAMPLES_README_URL, examples);
  writeFileSync(API_DOC_URL, api);
  console.log('updated examples/README.md and the walk-through of docs/api.md from a scan of every example');
}

/**
 * The GitHub Action (action.yml, `runs.using: node24`): reads the inputs from the INPUT_* variables the
 * runner sets, runs the scanner once for the log (text), once for annotations on the run and the diff
 * (workflow commands, never failing) and, when `sarif` is set, once for the SARIF file. The step fails
 * (exit code 1) exactly when `chainbreaker scan` would, with the same fail-on and baseline.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main, type CliIO } from './cli.js';
import { runInWorker } from './worker-run.js';

function input(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

export function actionArguments(read: (name: string) => string): { common: string[]; failOn: string; sarif: string } {
  const paths = read('paths').split(/\s+/).filter((p) => p !== '');
  const common = [...(paths.length > 0 ? paths : ['.'])];
  for (const [flag, name] of [
    ['--config', 'config'],
    ['--baseline', 'baseline'],
    ['--min-severity', 'min-severity'],
  ] as const) {
    const value = read(name);
    if (value !== '') common.push(flag, value);
  }
  return { common, failOn: read('fail-on') === '' ? 'high' : read('fail-on'), sarif: read('sarif') };
}

async function run(): Promise<number> {
  const { common, failOn, sarif } = actionArguments(input);
  // In the bundle, each run goes through the CLI's entry in a worker thread, whose time limit stops it for
  // real (bin/worker-run.ts): a pull request must not be able to hang the job. Under tsx, in this thread.
  const entry = new URL('./chainbreaker.js', import.meta.url);
  const cwd = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const io = (argv: string[]): CliIO => ({ argv, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd });
  // The bundle's scans are one pass each: the scanning thread tells the optimizing compiler to do less once it has
  // loaded its code (bin/chainbreaker.ts, lib/cli/compiler-tuning.ts).
  const scan = (argv: string[]) => (existsSync(fileURLToPath(entry)) ? inWorkspace(cwd, () => runInWorker(entry, argv, { stdout: process.stdout, stderr: process.stderr })) : main(io(argv)));
  const code = await scan(['scan', ...common, '--format', 'text', '--fail-on', failOn]);
  if (code <= 1) {
    await scan(['scan', ...common, '--format', 'github', '--fail-on', 'none']);
    if (sarif !== '') {
      const sarifCode = await scan(['scan', ...common, '--format', 'sarif', '--fail-on', 'none', '--output', sarif]);
      if (sarifCode > 1) return sarifCode;
    }
  }
  const output = process.env.GITHUB_OUTPUT;
  if (output !== undefined && output !== '') appendFileSync(output, `exit-code=${code}\n`);
  return code;
}

/** Runs `work` with `dir` as the working directory (the worker reads paths relative to it). */
async function inWorkspace<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  if (dir === before) return work();
  process.chdir(dir);
  try {
    return await work();
  } finally {
    process.chdir(before);
  }
}

process.exitCode = await run();

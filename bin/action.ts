/**
 * The GitHub Action (action.yml, `runs.using: node24`): reads the inputs from the INPUT_* variables the
 * runner sets, runs the scanner once for the log (text), once for annotations on the run and the diff
 * (workflow commands, never failing) and, when `sarif` is set, once for the SARIF file. The step fails
 * (exit code 1) exactly when `chainbreaker scan` would, with the same fail-on and baseline.
 */
import { appendFileSync } from 'node:fs';
import { main, type CliIO } from './cli.js';

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
  const io = (argv: string[]): CliIO => ({ argv, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.env.GITHUB_WORKSPACE ?? process.cwd() });
  const code = await main(io(['scan', ...common, '--format', 'text', '--fail-on', failOn]));
  if (code <= 1) {
    await main(io(['scan', ...common, '--format', 'github', '--fail-on', 'none']));
    if (sarif !== '') {
      const sarifCode = await main(io(['scan', ...common, '--format', 'sarif', '--fail-on', 'none', '--output', sarif]));
      if (sarifCode > 1) return sarifCode;
    }
  }
  const output = process.env.GITHUB_OUTPUT;
  if (output !== undefined && output !== '') appendFileSync(output, `exit-code=${code}\n`);
  return code;
}

process.exitCode = await run();

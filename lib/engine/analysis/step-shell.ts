/**
 * The shell a `run:` step's script runs in, and whether a failing command stops it.
 *
 * GitHub runs a `run:` script with the step's `shell:`, else the job's, else the workflow's `defaults.run.shell`
 * (a composite action's step must name its own), else the runner's default. From GitHub's documentation of
 * `jobs.<job_id>.steps[*].shell`, the commands it runs:
 *
 * | `shell:` | command |
 * |---|---|
 * | unspecified, Linux and macOS | `bash -e {0}` |
 * | unspecified, Windows | `pwsh -command ". '{0}'"` |
 * | `bash` | `bash --noprofile --norc -eo pipefail {0}` |
 * | `sh` | `sh -e {0}` |
 * | `pwsh`, `powershell`, `cmd`, `python` | no `-e`: a failing program does not stop the script |
 * | a custom command (`bash -x {0}`) | its own options, nothing added |
 *
 * With `-e` (errexit) the shell exits at the first command that fails, except one whose failure is tested: an
 * `if`/`while`/`until` condition, a command after `!`, any command of an `&&` or `||` list but the last, a
 * command of a pipeline but the last (with `pipefail`, a pipeline fails when any command of it does). The
 * script's own `set -e` / `set +e` / `set -o pipefail` change it from that line on.
 */
import type { Job, Step } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';
import { commandName, words } from '../shell.js';
import { get, getText } from '../yaml/model.js';

export interface StepShell {
  /** A POSIX shell (bash, sh, dash, zsh, ksh): `-e` and `pipefail` mean what they say. */
  posix: boolean;
  /** `-e` at the script's start. */
  errexit: boolean;
  /** `-o pipefail` at the script's start. */
  pipefail: boolean;
}

const POSIX_SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);
const NONE: StepShell = { posix: false, errexit: false, pipefail: false };

/**
 * The `shell:` that applies to a step, as written, or null for the runner's default. A composite action's step
 * has no job and no defaults: only its own `shell:` (GitHub requires one there). Two readings use it, on purpose
 * apart: `stepShell`, for what `-e` means (a program named by path or in capitals counts: `/bin/bash -e {0}`),
 * and the script-injection fixer (fixes/by-rule/script-injection.ts `shellOf`), for which quoting to write: it
 * rewrites only for a program named bare (`bash`, `sh`, `pwsh`, `powershell`) and, with no `shell:`, takes a
 * `runs-on` that names Windows for pwsh and any other (one a matrix picks too) for bash.
 */
export function declaredShell(step: Step): string | null {
  if (step.shell !== null) return step.shell;
  const job = step.job;
  if (job === null) return null;
  return getText(get(get(job.node, 'defaults'), 'run'), 'shell') ?? getText(get(get(job.workflow.root, 'defaults'), 'run'), 'shell');
}

const WINDOWS = new ScanCache<Job, boolean>();

/** True when the job may run on Windows (its `runs-on`, or the matrix that picks it, names a Windows runner). Once per job. */
function mayRunOnWindows(job: Job | null): boolean {
  if (job === null) return false;
  let found = WINDOWS.get(job);
  if (found === undefined) {
    found = readWindows(job);
    WINDOWS.set(job, found);
  }
  return found;
}

function readWindows(job: Job): boolean {
  const runsOn = get(job.node, 'runs-on');
  const strategy = get(job.node, 'strategy');
  return /windows/i.test(JSON.stringify(runsOn ?? '')) || (/\$\{\{/.test(JSON.stringify(runsOn ?? '')) && /windows/i.test(JSON.stringify(strategy ?? '')));
}

/** The shell of a step's `run:` script and its options at the start. */
export function stepShell(step: Step): StepShell {
  const declared = declaredShell(step)?.trim() ?? null;
  if (declared === null) return mayRunOnWindows(step.job) ? NONE : { posix: true, errexit: true, pipefail: false };
  const list = declared.split(/\s+/);
  const program = (list[0] ?? '').replace(/^.*[\\/]/, '').toLowerCase();
  if (!POSIX_SHELLS.has(program)) return NONE;
  // `shell: bash` and `shell: sh` are GitHub's templates; anything longer is a command of its own.
  if (list.length === 1) return { posix: true, errexit: true, pipefail: program === 'bash' };
  return setOptions(list.slice(1), { posix: true, errexit: false, pipefail: false });
}

/**
 * `state` after the options of a `set` command or a shell's command line (`-e`, `-eo pipefail`, `+e`,
 * `-o errexit`, `--noprofile`): `-` turns an option on, `+` off.
 */
export function setOptions(args: readonly string[], state: StepShell): StepShell {
  let { errexit, pipefail } = state;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const match = /^([-+])([a-zA-Z]+)$/.exec(word);
    if (match === null) continue;
    const on = match[1] === '-';
    const letters = match[2] ?? '';
    if (letters.includes('e')) errexit = on;
    if (letters.includes('o')) {
      const name = args[++i];
      if (name === 'errexit') errexit = on;
      if (name === 'pipefail') pipefail = on;
    }
  }
  return { ...state, errexit, pipefail };
}

/** Shells whose `-c` script is read as a script of its own (its own `&&`, `set -e`). */
const NESTED_SHELLS = new Set([...POSIX_SHELLS, 'ash']);
/** Programs that run a command line elsewhere and exit with its status (`docker run IMAGE bash -c "..."`, `ssh host sh -c '...'`). */
const COMMAND_HOSTS = new Set(['docker', 'podman', 'nerdctl', 'kubectl', 'ssh', 'chroot', 'nsenter', 'unshare', 'xvfb-run']);
/** Programs whose own `-c` runs a script in the user's shell (`su user -c '...'`, `runuser -u user -c`... ). */
const SU_PROGRAMS = new Set(['su', 'runuser']);

/**
 * The script a command runs in a nested shell, and the options that shell starts with: `bash -c "a && b"`,
 * `sh -ec '...'`, `bash -o pipefail -c '...'`, `docker run --rm IMAGE bash -c "..."`, `docker exec CTR sh -c
 * '...'`, `su user -c '...'`; null for anything else. Such a shell starts without `-e` unless its options say so
 * (`bash -c` is not GitHub's `bash -e {0}`), and its command (and `docker run`/`exec`, `ssh`, which exit with the
 * status of the command they run) fails when its script fails.
 */
export function nestedScript(command: string): { script: string; options: string[] } | null {
  const program = commandName(command)?.toLowerCase();
  if (program === undefined) return null;
  const list = words(command);
  const base = (w: string): string => w.replace(/^.*\//, '').toLowerCase();
  const at = list.findIndex((w) => base(w) === program);
  if (SU_PROGRAMS.has(program)) {
    const c = list.findIndex((w, i) => i > at && (w === '-c' || w === '--command'));
    const script = c === -1 ? undefined : list[c + 1];
    return script === undefined ? null : { script, options: [] };
  }
  const starts = NESTED_SHELLS.has(program) ? [at] : COMMAND_HOSTS.has(program) ? list.map((w, i) => (i > at && NESTED_SHELLS.has(base(w)) ? i : -1)).filter((i) => i !== -1) : [];
  for (const start of starts) {
    const options: string[] = [];
    for (let i = start + 1; i < list.length; i++) {
      const word = list[i] ?? '';
      if (word === '-o' || word === '+o') {
        options.push(word, list[i + 1] ?? '');
        i++;
      } else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word)) {
        const script = list[i + 1];
        if (script !== undefined) return { script, options: [...options, word.replace('c', '')].filter((o) => o !== '-') };
        break;
      } else if (/^[-+][a-zA-Z]+$/.test(word)) options.push(word);
      else if (!word.startsWith('--')) break;
    }
  }
  return null;
}

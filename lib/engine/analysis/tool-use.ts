/**
 * Whether anything later in a job uses a program a script downloaded to a named file: a command that runs it
 * (by its path or, once it is on `PATH`, by its name), a tool known to call it (`yq` and `tomlq` run `jq`), a
 * command or action input that takes the file (to unpack, package, upload or run it). Only a download saved as
 * a program (`.exe`, no extension, or made executable) to the filesystem's or drive's root, a `bin` directory or
 * the runner's temporary directory counts as unused; a file anywhere in the workspace may be packaged by a glob
 * no later step names, so it always counts as used. When in doubt the answer is "used".
 */
import type { Step } from '../model/workflow.js';
import type { JobRun } from './run-model/index.js';
import { scriptOf } from './file-scripts.js';
import { commandName, scriptPipelines, words } from '../shell.js';

/** Programs that run another one they need on `PATH`. */
const CALLERS: Readonly<Record<string, readonly string[]>> = {
  jq: ['yq', 'tomlq', 'xq', 'jaq', 'gojq'],
};

/** Commands that only move, copy, link or mark a file: the copy's name is followed instead. */
const MOVERS = new Set(['mv', 'cp', 'install', 'ln', 'chmod', 'copy-item', 'move-item', 'copy', 'move', 'cpi', 'mi']);

/** Commands that run another command given as an argument or a string. */
const WRAPPERS = new Set(['bash', 'sh', 'zsh', 'pwsh', 'powershell', 'cmd', 'xargs', 'find', 'eval', 'parallel', 'watch', 'start-process', 'invoke-expression', 'iex', 'call']);

/** Directories a program is put in to be run from `PATH`, not packaged: a root, a `bin`, the runner's temporary directory. */
const TOOL_DIRECTORY = /^(?:|[A-Za-z]:|~\/(?:\.local\/)?bin|\$HOME\/(?:\.local\/)?bin|\/usr(?:\/local)?\/bin|\/bin|\/opt\/bin|\/tmp|\$\{?RUNNER_TEMP\}?(?:\/.*)?|\$\{\{\s*runner\.temp\s*\}\}(?:\/.*)?|\$env:RUNNER_TEMP(?:\/.*)?)$/i;

function base(word: string): string {
  const clean = word.replace(/^["']|["']$/g, '').replace(/\\/g, '/');
  return clean.slice(clean.lastIndexOf('/') + 1);
}

function programName(file: string): string {
  return file.toLowerCase().replace(/\.exe$/, '');
}

/**
 * True when nothing after `offset` in `step`'s script, nor any later step of the job, uses the program the
 * script saved as `output`; false when something may (or the file is not a program put where tools go).
 */
export function downloadedToolUnused(run: JobRun, step: Step, offset: number, output: string, executable: boolean): boolean {
  const path = output.replace(/^["']|["']$/g, '').replace(/\\/g, '/');
  const file = base(path);
  if (file === '' || file.length > 100 || !(/\.exe$/i.test(file) || !file.includes('.') || executable)) return false;
  const directory = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  if (path.includes('/') ? !TOOL_DIRECTORY.test(directory) : true) return false;
  const files = new Set([file.toLowerCase()]);
  const programs = new Set([programName(file)]);
  const uses = (command: string): boolean => {
    const name = commandName(command);
    if (name === null) return false;
    const program = programName(base(name));
    if (programs.has(program)) return true;
    for (const p of programs) if ((CALLERS[p] ?? []).includes(program)) return true;
    const list = words(command);
    const named = list.slice(1).some((w) => files.has(base(w).toLowerCase()) || programs.has(programName(base(w))));
    if (WRAPPERS.has(program) && named) return true;
    for (const m of command.matchAll(/(?:\$\(|`)\s*([\w./\\-]{1,200})/g)) if (programs.has(programName(base(m[1] ?? '')))) return true;
    if (!list.slice(1).some((w) => files.has(base(w).toLowerCase()))) return false;
    if (!MOVERS.has(program)) return true;
    // A copy or a move: follow its new name (the last operand).
    const target = base(list[list.length - 1] ?? '');
    if (target !== '' && !target.startsWith('-')) {
      files.add(target.toLowerCase());
      programs.add(programName(target));
    }
    return false;
  };
  const script = scriptOf(step);
  if (script === null) return false;
  for (const pipeline of scriptPipelines(script.text)) {
    if (pipeline.offset <= offset) continue;
    if (pipeline.commands.some((c) => uses(c.text))) return false;
  }
  const steps = run.steps;
  const at = steps.findIndex((s) => s.step === step);
  if (at === -1) return false;
  for (const { step: later } of steps.slice(at + 1)) {
    const found = scriptOf(later);
    if (found !== null) {
      for (const pipeline of scriptPipelines(found.text)) if (pipeline.commands.some((c) => uses(c.text))) return false;
    }
    // An action given the file (to upload, package or run it), or a step whose text names it otherwise.
    const text = later.owner.file.text.slice(later.node.start, later.node.end).toLowerCase();
    if (found === null && [...files].some((f) => text.includes(f))) return false;
    if (found === null && later.usesRef?.kind !== 'repository' && later.usesRef?.kind !== 'local') return false;
  }
  return true;
}

import type { Severity } from '../types.js';

/**
 * Features GitHub Actions permits that are hazardous to use: each entry is one row of the `misfeature`
 * rule, with its source. `shell` entries match a `shell:` value (a step's, or `defaults.run.shell` of a job
 * or workflow); `input` entries match a `with:` input of an action.
 */
export type Misfeature =
  | { kind: 'shell'; id: string; shell: RegExp; severity: Severity; why: string; fix: string; source: string }
  | { kind: 'input'; id: string; action: string; input: string; value?: RegExp; severity: Severity; why: string; fix: string; source: string };

export const MISFEATURES: readonly Misfeature[] = [
  {
    kind: 'shell',
    id: 'cmd-shell',
    // `cmd` and the custom form GitHub documents for it (`cmd /D /E:ON /V:OFF /S /C "CALL "{0}""`).
    shell: /^cmd(?:\.exe)?(?:\s|$)/i,
    severity: 'LOW',
    why: 'the Windows CMD shell has no formal grammar, so neither reviewers nor scanners can tell how an interpolated value is parsed (and expansion with `%VAR%` and `!VAR!` differs from every other shell); it has not been the default on Windows runners since 2019',
    fix: 'Use `shell: pwsh` (the Windows default) or `bash`, and pass values through environment variables.',
    source: 'https://docs.zizmor.sh/audits/#misfeature',
  },
  {
    kind: 'input',
    id: 'setup-python-pip-install',
    action: 'actions/setup-python',
    input: 'pip-install',
    severity: 'INFO',
    why: '`pip-install` installs packages into the global (user or system) environment, unpinned and unaudited, outside any lock file',
    fix: 'Create a virtual environment in a `run:` step and install locked dependencies into it (`python -m venv .venv && .venv/bin/pip install -r requirements.txt`).',
    source: 'https://github.com/actions/setup-python/issues/1201 and https://peps.python.org/pep-0668/',
  },
  {
    kind: 'input',
    id: 'checkout-ssh-key',
    action: 'actions/checkout',
    input: 'ssh-key',
    severity: 'LOW',
    why: 'the SSH key is written to the runner and, unless `persist-credentials: false`, stays configured for git for the rest of the job, where every later step (and any action it runs) can read it; deploy keys are often writable and never expire',
    fix: 'Prefer the job token or a short-lived GitHub App token; if a key is needed, make it read-only and set `persist-credentials: false`.',
    source: 'https://github.com/actions/checkout#usage',
  },
  {
    kind: 'input',
    id: 'checkout-submodules',
    action: 'actions/checkout',
    input: 'submodules',
    value: /^(?:true|recursive)$/i,
    severity: 'INFO',
    why: 'submodules bring code from the repositories `.gitmodules` names into the build, at the commits this repository pins: a push to one of them changes nothing here until a commit of this repository bumps the pointer (reviewed like any other change), so they add only the authors of the pinned commits, and submodules of this repository\'s own owner add no one new',
    fix: 'Review submodule pointer bumps like dependency updates, and check that submodules of other owners are ones you trust with this build (or vendor what is needed); nothing more is needed for submodules of your own organisation.',
    source: 'https://git-scm.com/book/en/v2/Git-Tools-Submodules',
  },
];

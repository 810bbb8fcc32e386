import { nothingWorthText } from '../analysis/run-model/holdings.js';
import { commandWords, hasAny, scriptOf, wordMask, type RunScript } from '../analysis/file-scripts.js';
import { fetchOf, isLocalUrl, mentionsFetch } from '../analysis/remote-fetch.js';
import { namedInstaller, vendorEntry } from '../data/installers.js';
import { commitPinnedFile, officialInstallerAt, ownFileAtCommit } from '../analysis/download-origin.js';
import { hostedRunnersOnly } from '../analysis/runners.js';
import { urlOwnership, type RepositoryIdentity } from '../analysis/run-model/ownership.js';
import { defineWorkflowRule } from '../rule.js';
import { PipeToShellOptions } from '../rule-options.js';
import type { Severity } from '../types.js';
import { commandName, scriptPipelines, inTextHeredoc, words } from '../shell.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { ScanCache } from '../model/scan-cache.js';

/** Interpreters, and the options that make them take their program from an argument instead of stdin. */
const INTERPRETERS: Record<string, { codeFlag: RegExp; stdinFlag?: RegExp; valueFlag?: RegExp }> = {
  sh: { codeFlag: /^-[a-z]*c[a-z]*$/i, stdinFlag: /^-[a-z]*s[a-z]*$/i, valueFlag: /^[-+]o$/ },
  python: { codeFlag: /^-[a-z]*[cm][a-z]*$/i, valueFlag: /^-[WX]$/ },
  node: { codeFlag: /^(-[ep]|--eval|--print)$/ },
  perl: { codeFlag: /^-[a-z]*[eE][a-z]*$/i },
  ruby: { codeFlag: /^-[a-z]*e[a-z]*$/i },
  php: { codeFlag: /^-[rB]$/ },
  pwsh: { codeFlag: /^-(c|command|f|file|e|ec|encodedcommand)$/i },
  iex: { codeFlag: /^$/ },
};

function interpreterKind(name: string): string | null {
  const n = name.toLowerCase();
  if (/^(ba|z|da|k|a)?sh$/.test(n)) return 'sh';
  if (/^python(\d+(\.\d+)?)?$/.test(n)) return 'python';
  if (n === 'node' || n === 'nodejs' || n === 'bun' || n === 'deno') return n === 'deno' ? null : 'node';
  if (n === 'perl' || n === 'ruby' || n === 'php') return n;
  if (n === 'pwsh' || n === 'powershell' || n === 'powershell.exe') return 'pwsh';
  if (n === 'iex' || n === 'invoke-expression') return 'iex';
  return null;
}

/** True when the interpreter command reads the program it runs from standard input. */
function readsProgramFromStdin(command: string): boolean {
  const list = words(command);
  const name = commandName(command);
  if (name === null) return false;
  const kind = interpreterKind(name);
  if (kind === null) return false;
  if (kind === 'iex') return true;
  const spec = INTERPRETERS[kind];
  if (spec === undefined) return false;
  const start = list.findIndex((w) => w.replace(/^.*\//, '') === name);
  for (let i = start + 1; i < list.length; i++) {
    const word = list[i] ?? '';
    if (word === '-' || word === '--') return true;
    if (spec.stdinFlag?.test(word) === true) return true;
    if (word.startsWith('-')) {
      if (spec.codeFlag.test(word)) return kind === 'pwsh' && /^-(c|command)$/i.test(word) && list[i + 1] === '-';
      if (spec.valueFlag?.test(word) === true) i++;
      continue;
    }
    // A positional argument is a script file: what arrives on stdin is its data.
    return false;
  }
  return true;
}

const SUBSTITUTED_SHELL =
  /^(?:sudo\s+(?:-\S+\s+)*)?(?:\S*\/)?(?:(?:ba|z|da|k)?sh\s+(?:-\S+\s+)*-[a-z]*c[a-z]*|eval|python\d?\s+-c|node\s+-e|perl\s+-e)\s+["']?(?:\$\(|`)/i;
const PROCESS_SUBSTITUTION = /^(?:sudo\s+(?:-\S+\s+)*)?(?:\S*\/)?(?:(?:ba|z|da|k)?sh|source|\.|python\d?|node|perl|ruby)\s[^<]*<\(/i;
const INVOKE_EXPRESSION = /^(?:iex|invoke-expression)\b/i;

const SUDO = /^\s*(?:sudo|doas)\b/i;

/** Every form below fetches: a downloader's name, or `.DownloadString(`/`.DownloadData(`. */
const FETCHES = wordMask('curl', 'wget', 'iwr', 'irm', 'webrequest', 'restmethod', 'downloadstring', 'downloaddata');

interface Hit {
  /** Offset in the script of the pipeline or command that runs the remote script. */
  offset: number;
  form: string;
  url: string | null;
  /** The interpreter runs as root (`… | sudo bash`, `sudo sh -c "$(curl …)"`). */
  sudo: boolean;
}

/**
 * The words a command needs for `fetchOf` (a downloader's name, `.DownloadString(` ...) or `mentionsFetch` to
 * find anything in it: most commands of a script that downloads something do not download.
 */
const FETCH_COMMAND = wordMask('curl', 'wget', 'iwr', 'irm', 'webrequest', 'restmethod', 'downloadstring', 'downloaddata', 'downloadfile');

const runsByScript = new ScanCache<RunScript, readonly Hit[]>();

/**
 * `remoteScriptRuns` of a step's script, read once per scan: pipe-to-shell reports them and
 * download-without-checksum leaves their pipelines to it.
 */
export function scriptRemoteRuns(script: RunScript): readonly Hit[] {
  let hits = runsByScript.get(script);
  if (hits === undefined) {
    hits = remoteScriptRuns(script.text);
    runsByScript.set(script, hits);
  }
  return hits;
}

/** The places a script runs a fetched script, at most one per pipeline. */
export function remoteScriptRuns(script: string, depth = 0): Hit[] {
  const hits: Hit[] = [];
  for (const pipeline of scriptPipelines(script)) {
    // A here-document the script only holds as text (an issue body that shows a `curl` command) runs nothing.
    if (inTextHeredoc(script, pipeline.offset)) continue;
    const hit = pipelineHit(pipeline.commands.map((c) => c.text), depth);
    if (hit !== null) hits.push({ ...hit, offset: pipeline.offset });
  }
  return hits;
}

function pipelineHit(commands: string[], depth: number): Omit<Hit, 'offset'> | null {
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i] ?? '';
    if (!hasAny(commandWords(command), FETCH_COMMAND)) continue;
    const fetch = fetchOf(command);
    if (fetch !== null && !isLocalUrl(fetch.url)) {
      const runner = commands.slice(i + 1).find(readsProgramFromStdin);
      if (runner !== undefined) return { form: `${fetch.program} … | ${commandName(runner) ?? runner}`, url: fetch.url, sudo: SUDO.test(runner) };
    }
    if (!mentionsFetch(command)) continue;
    // A literal URL, else a variable handed to the fetch (`DownloadString("${env:URL}")`, `curl -fsSL "$URL"`).
    const url =
      /(?:https?|ftp):\/\/(?:\$\{\{[^}]*\}\}|[^\s'"()`])+/i.exec(command)?.[0] ??
      /(?:\.Download(?:String|Data)\(\s*|\b(?:curl|wget|iwr|irm)\s+(?:-[\w-]+\s+)*)["']?(\$\{?(?:env:)?[A-Za-z_]\w*\}?)/i.exec(command)?.[1] ??
      null;
    if (isLocalUrl(url)) continue;
    const sudo = SUDO.test(command);
    if (PROCESS_SUBSTITUTION.test(command)) return { form: `${commandName(command) ?? 'shell'} <(…)`, url, sudo };
    if (SUBSTITUTED_SHELL.test(command)) return { form: `${commandName(command) ?? 'shell'} "$(…)"`, url, sudo };
    if (INVOKE_EXPRESSION.test(command)) return { form: `${commandName(command) ?? 'iex'} (…)`, url, sudo };
    // `sh -c 'curl … | sh'`: the quoted program is a script of its own.
    const kind = interpreterKind(commandName(command) ?? '');
    if (kind === 'sh' && depth < 2) {
      const list = words(command);
      const flag = list.findIndex((w) => /^-[a-z]*c[a-z]*$/i.test(w));
      const inner = flag === -1 ? undefined : list[flag + 1];
      const nested = inner === undefined ? [] : remoteScriptRuns(inner, depth + 1);
      if (nested[0] !== undefined) return { form: nested[0].form, url: nested[0].url, sudo: nested[0].sudo || SUDO.test(command) };
    }
  }
  return null;
}

/**
 * The severity of one hit and, when it is not the default HIGH, why. `hostedRunner`: the job runs only on
 * GitHub-hosted (or managed ephemeral, or VM-per-job) runners, whose user already has passwordless `sudo` on a machine that
 * lives for one job, so root gives the script nothing more.
 */
export function hitSeverity(
  hit: Pick<Hit, 'url' | 'sudo'>,
  hostedRunner = false,
  identity: RepositoryIdentity | null = null,
  installer: { tool: string; where: string } | null = null,
): { severity: Severity; why: string } {
  const url = hit.url?.trim() ?? null;
  if (url !== null && /^(http|ftp):\/\//i.test(url)) {
    return { severity: 'HIGH', why: ' It is fetched over plain HTTP, so anyone on the network path can replace it.' };
  }
  // The repository's own content, its owner's or GitHub's (run-model/ownership.ts), over HTTPS: whoever can change
  // it already maintains this repository or runs the runner.
  const owner = identity === null ? null : urlOwnership(url, identity);
  if (owner !== null && owner.ownership !== 'third-party' && url !== null && /^https:\/\//i.test(url)) {
    return {
      severity: 'LOW',
      why: ` LOW: it is served from ${owner.text} over HTTPS, so whoever can change it ${owner.ownership === 'platform' ? 'runs the runner itself' : 'already maintains this repository'}; a pinned version and a checksum still make the build reproducible.`,
    };
  }
  // The vendor's official installer on its own host (data/installers.ts: the table, or an installer named after
  // the tool on a host named after it), its variables resolved by the caller (download-origin.ts).
  const vendor = installer ?? officialInstaller(url);
  if (vendor !== null) {
    return {
      severity: 'LOW',
      why: ` LOW: it is the official ${vendor.tool} installer, served over HTTPS from ${vendor.where}: whoever controls it controls the ${vendor.tool} the job then runs, so it adds no party the job does not already trust by installing ${vendor.tool} at all. Pinning a version with a committed checksum is the hardening.`,
    };
  }
  // A file of a GitHub repository at a full commit SHA (`raw.githubusercontent.com/o/r/<sha>/install.sh`): GitHub serves
  // that commit's content, which nobody can change; what the script itself fetches when it runs may still move.
  const pinned = commitPinnedFile(url);
  if (pinned !== null) {
    return {
      severity: 'LOW',
      why: ` LOW: it is \`${pinned.path}\` of \`${pinned.repository}\` at commit \`${pinned.sha.slice(0, 12)}\`, whose content GitHub serves unchanged, so nobody can swap the script; what it downloads in turn (a release it picks) is its own choice, and a version argument or a checksum pins that.`,
    };
  }
  if (hit.sudo && !hostedRunner) return { severity: 'HIGH', why: ' It runs as root from a host that is not a known vendor installer.' };
  const root = hit.sudo ? ' It runs as root, but only on runners made for one job (GitHub-hosted, a managed service, or a VM its orchestrator makes from the image the labels name), whose user already has passwordless sudo on a machine that lives for one job.' : '';
  return {
    severity: 'MEDIUM',
    why: ` MEDIUM: it is fetched over HTTPS, so only whoever controls that host (or its hosting account) can change what runs, not anyone on the network.${root}`,
  };
}

/** The vendor installer a literal URL is: the table's, else one whose file names the tool on a host named after it. */
function officialInstaller(url: string | null): { tool: string; where: string } | null {
  return httpsHost(url) === null ? null : (vendorEntry(url) ?? namedInstaller(url));
}

/** The lower-cased host of an `https://` URL, or null for any other URL (plain HTTP is never trusted: the network decides what arrives). */
function httpsHost(url: string | null): string | null {
  const match = /^https:\/\/(?:[^/@\s]*@)?([^/:?#\s]+)/i.exec(url?.trim() ?? '');
  return match === null ? null : (match[1] ?? '').toLowerCase().replace(/\.$/, '');
}

/** Whether `host` is one of the team's trusted hosts (`sh.rustup.rs`, or `*.example.com` for any subdomain of it). */
export function isTrustedHost(host: string, trusted: readonly string[]): boolean {
  return trusted.some((entry) => {
    const t = entry.toLowerCase();
    return t.startsWith('*.') ? host.endsWith(t.slice(1)) : host === t;
  });
}

export default defineWorkflowRule({
  options: PipeToShellOptions,
  meta: {
    id: 'pipe-to-shell',
    category: 'CICD-SEC-3',
    title: 'Remote script piped into an interpreter',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A `run:` script downloads a script and executes it in one go (`curl … | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `iwr … | iex`), so whoever controls that URL, its DNS or its CDN runs code in the job.',
    recommendation:
      'Download the script to a file, verify its checksum or signature against a value committed in the repository, then run it; better, install the tool from a pinned package or a SHA-pinned action.',
  },
  create: (context) => {
    const trusted = (context.options as PipeToShellOptions)['trusted-hosts'];
    return {
      step(step) {
        // Most scripts fetch nothing: skip the shell reading for them (the words first, then the exact test).
        const script = scriptOf(step);
        if (script === null || !hasAny(script.words, FETCHES)) return;
        if (!/\b(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b|\.Download(String|Data)\s*\(/i.test(script.text)) return;
        const run = script.run;
        const file = step.owner.file;
        for (const hit of scriptRemoteRuns(script)) {
          // The team trusts this host's scripts (`trusted-hosts`), and HTTPS means only that host decides what runs.
          const host = httpsHost(hit.url);
          if (host !== null && trusted.length > 0 && isTrustedHost(host, trusted)) continue;
          // A script of this repository at the run's own commit or a fixed one (`raw.githubusercontent.com/${{
          // github.repository }}/${{ github.sha }}/install.sh`): the repository's own code, as its checkout would be.
          if (context.runs.identity !== null && ownFileAtCommit(step, script.text, hit.offset, hit.url, context.runs.identity) !== null) continue;
          const installer = officialInstallerAt(step, script.text, hit.offset, hit.url);
          let { severity, why } = hitSeverity(hit, step.job !== null && hostedRunnersOnly(step.job), context.runs.identity, installer);
          // The attacker is whoever controls the host: what they gain is what the job holds (docs/severity.md,
          // the supply-chain rules). Over HTTPS, in a job that holds no write scope, secret, OIDC token,
          // self-hosted machine or publish and feeds no publishing job, a swapped script changes only that run: LOW.
          // Over plain HTTP anyone on the network path swaps the script (HIGH where the job holds something worth
          // taking); in a job that holds nothing and supplies no release, what they run changes only that run: MEDIUM.
          const plain = /^http:\/\//i.test(hit.url?.trim() ?? '');
          if (severity === 'HIGH' && plain) {
            if (context.runs.suppliesNothing(step)) {
              severity = 'MEDIUM';
              why = `${why} MEDIUM: ${context.runs.uncalledNote(step) ?? `${step.job === null ? 'the jobs that run this action hold' : 'the job holds'} ${nothingWorthText(context.runs.minorAt(step))} and hand${step.job === null ? '' : 's'} no build to a publishing job, so the swapped script runs with nothing worth taking beyond this run`}.`;
            } else {
              why = `${why} HIGH: ${context.runs.supplyText(step)}.`;
            }
          }
          // Over HTTPS only the host's owner can swap it: in such a job, LOW (over plain HTTP, anyone on the path: MEDIUM above).
          if (severity === 'MEDIUM' && !plain && context.runs.suppliesNothing(step)) {
            severity = 'LOW';
            const uncalled = context.runs.uncalledNote(step);
            why = `${why.replace(' MEDIUM:', ' LOW:')} ${uncalled !== null ? `${uncalled.charAt(0).toUpperCase()}${uncalled.slice(1)}.` : `${step.job === null ? 'The jobs that run this action hold' : 'The job holds'} ${nothingWorthText(context.runs.minorAt(step))} and hand${step.job === null ? '' : 's'} no build to a publishing job, so a swapped script changes only this run.`}`;
          }
          context.report({
            node: run,
            offset: valueOffsetToSource(file, run, hit.offset),
            severity,
            message: `\`${hit.form}\` runs a script fetched from ${hit.url === null ? 'the network' : `\`${hit.url}\``} without verifying it${
              step.name === null ? '' : ` (step \`${step.name}\`)`
            }.${why}`,
          });
        }
      },
    };
  },
});

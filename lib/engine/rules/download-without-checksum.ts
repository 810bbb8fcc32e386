import { nothingWorthText, type MinorSecrets } from '../analysis/run-model/holdings.js';
import { commandWords, hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { downloadOrigin, ownFileAtCommit, type DownloadOrigin } from '../analysis/download-origin.js';
import { fetchesArtifactArchive, fetchOf, isLocalUrl, type Fetch } from '../analysis/remote-fetch.js';
import { feedFacts, holdingFacts, runFact } from '../analysis/run-model/facts.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { commandName, scriptPipelines, inTextHeredoc, words } from '../shell.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { scriptRemoteRuns } from './pipe-to-shell.js';
import { downloadedToolUnused } from '../analysis/tool-use.js';

/** File names of archives, packages, installers, binaries and scripts. */
const ARTIFACT = /\.(tar|tgz|tar\.(gz|xz|bz2|zst)|txz|tbz2?|zip|gz|xz|bz2|zst|7z|deb|rpm|apk|msi|exe|dmg|pkg|appimage|jar|war|whl|gem|nupkg|crate|vsix|sh|bash|ps1|py|pl|rb|run|bin)$/i;
/** Programs that unpack what is piped into them. */
const UNPACKERS = new Set(['tar', 'bsdtar', 'unzip', 'gunzip', 'zcat', 'xz', 'unxz', 'bunzip2', 'zstd', 'funzip', 'cpio', 'dpkg', 'rpm']);
/** Verification of a checksum or signature somewhere in a script. */
const VERIFICATION =
  /\b(sha(1|224|256|384|512)sum|shasum|b2sum|gpgv|slsa-verifier|minisign|sigstore|Get-FileHash)\b|\bopenssl\s+dgst|\bcosign\s+verify|\bgh\s+attestation\s+verify|--(checksum|sha256)\b/i;

/**
 * Whether a script verifies a checksum or signature. Two-part checks (`gpg … --verify`) look at one line
 * at a time, so a line repeating `gpg` cannot make the scan quadratic.
 */
function verifies(script: string): boolean {
  if (VERIFICATION.test(script)) return true;
  if (!/\b(gpg2?|certutil)\b/i.test(script)) return false;
  return script.split('\n').some((line) => (/\bgpg2?\b/.test(line) && line.includes('--verify')) || (/\bcertutil\b/i.test(line) && /-hashfile/i.test(line)));
}

/** Options that make the request something other than a download (curl and wget short options may be clustered: `-sI`). */
const NOT_A_DOWNLOAD = /^(--(request|data[\w-]*|form|upload-file|head|spider)|-(Method|Body|InFile))$/i;
const NOT_A_DOWNLOAD_SHORT = /^-[a-zA-Z]*[XdFTI][a-zA-Z]*$/;

function isNotADownload(fetch: Fetch): boolean {
  const unix = fetch.program === 'curl' || fetch.program === 'wget';
  return fetch.words.some((w) => NOT_A_DOWNLOAD.test(w) || (unix && NOT_A_DOWNLOAD_SHORT.test(w)));
}
const OUTPUT_OPTION = /^(-o|-O|--output|--output-document|-OutFile)$/i;

/** The name a fetch saves to, when it names one. */
function outputFile(fetch: Fetch): string | null {
  const list = fetch.words;
  for (let i = 1; i < list.length; i++) {
    const word = list[i] ?? '';
    const attached = /^(?:--output(?:-document)?=|-o|-O)(.+)$/.exec(word);
    // `curl -fsSLo file`: a cluster ending in `o` takes the output name as the next word.
    if (OUTPUT_OPTION.test(word) || (fetch.program === 'curl' && /^-[a-zA-Z]+o$/.test(word))) {
      const next = list[i + 1];
      // `curl -O` (remote name) takes no value; `wget -O file` and `curl -o file` do.
      if (word === '-O' && fetch.program === 'curl') return null;
      return next === undefined || next.startsWith('-') ? null : next;
    }
    if (attached?.[1] !== undefined && !attached[1].startsWith('-') && fetch.program !== 'curl') return attached[1];
  }
  return null;
}

function stripQuery(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** `chmod` with a mode that adds execute permission (`+x`, `u+x`, `755`), then its operands: the line is read once. */
const CHMOD = /\bchmod\s+(\S+)\s+(.*)/;
const SYMBOLIC_CLAUSE = /^[ugoa]*[+=]([rwxXst]*)$/;

/** A `chmod` mode that gives execute permission: octal with an execute bit (`755`), or a clause `+x`, `u+rx`, `a=rwx`. */
function addsExecute(mode: string): boolean {
  if (mode.length > 32) return false;
  if (/^[0-7]{3,4}$/.test(mode)) return [...mode.slice(-3)].some((digit) => (Number(digit) & 1) === 1);
  return mode.split(',').some((clause) => SYMBOLIC_CLAUSE.exec(clause)?.[1]?.includes('x') === true);
}

/**
 * The names a script makes executable: every word after an executable `chmod` mode on its line, and its last
 * path segment. Built once per script, line by line with bounded patterns (no pattern is built from the
 * script's text), so each download's check is a set lookup, not a search of the whole script.
 */
function executables(script: string): Set<string> {
  const names = new Set<string>();
  const add = (word: string) => {
    names.add(word);
    const slash = word.lastIndexOf('/');
    if (slash >= 0 && slash < word.length - 1) names.add(word.slice(slash + 1));
  };
  for (const line of script.split('\n')) {
    if (line.includes('install')) for (const source of installedExecutables(line)) add(source);
    if (!line.includes('chmod')) continue;
    const match = CHMOD.exec(line);
    if (match === null || !addsExecute(match[1] ?? '')) continue;
    for (const word of (match[2] ?? '').split(/[\s;&|()'"`]+/)) {
      if (word !== '') add(word);
    }
  }
  return names;
}

/** `install` as a command of its own (at the start of a line, after `sudo`, or after `;`, `&&`, `||`, `|`, `(`), then its words. */
const INSTALL = /(?:^|[;&|(]|\bsudo)\s*install\s+(.*)/;
/** Options of coreutils `install` that take a value (`-m` is read apart). */
const INSTALL_VALUED = new Set(['-o', '-g', '-S', '--owner', '--group', '--suffix']);

/**
 * The files a coreutils `install` line copies with an execute mode: `install` gives 0755 unless `-m` says
 * otherwise, so `sudo install -m 0755 tool /usr/local/bin/tool` (or plain `install tool /usr/local/bin`)
 * makes `tool` a program as `chmod +x` does. The sources are every operand but the last (all of them with
 * `-t DIR`); `-d` creates directories and copies nothing. The line is split once, with no pattern built from it.
 */
function installedExecutables(line: string): string[] {
  const match = INSTALL.exec(line);
  if (match === null) return [];
  const words = (match[1] ?? '').split(/[;&|)]/)[0]?.split(/\s+/).filter((w) => w !== '').map((w) => w.replace(/^["']|["']$/g, '')) ?? [];
  let mode: string | null = null;
  let target = false;
  const operands: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '-m' || word === '--mode') mode = words[++i] ?? '';
    else if (word.startsWith('--mode=')) mode = word.slice('--mode='.length);
    else if (word === '-t' || word === '--target-directory') {
      target = true;
      i++;
    } else if (word.startsWith('--target-directory=')) target = true;
    else if (INSTALL_VALUED.has(word)) i++;
    else if (/^-[A-Za-z]+$/.test(word)) {
      if (word.includes('d') && !word.startsWith('--')) return [];
      const clustered = /m$/.test(word) ? words[++i] : undefined;
      if (clustered !== undefined) mode = clustered;
      if (word.includes('t') && !/m$/.test(word)) {
        target = true;
        i++;
      }
    } else if (/^-[A-Za-z]*m[0-7]{3,4}$/.test(word)) mode = word.slice(word.indexOf('m') + 1);
    else if (!word.startsWith('-')) operands.push(word);
  }
  if (mode !== null && !addsExecute(mode)) return [];
  return target ? operands : operands.slice(0, -1);
}

/** Why a fetch command downloads an artifact (for the message), or null when it does not look like one. */
function artifactEvidence(fetch: Fetch, rest: string[], madeExecutable: () => Set<string>): string | null {
  if (isNotADownload(fetch)) return null;
  const url = fetch.url === null ? null : stripQuery(fetch.url);
  // Content addressed by a commit (`…/archive/<40-hex>.tar.gz`) cannot change under the same URL.
  if (url !== null && /\/[0-9a-f]{40}(?:[/.]|$)/i.test(url)) return null;
  if (url !== null && ARTIFACT.test(url)) return `\`${fetch.url ?? ''}\``;
  const output = outputFile(fetch);
  if (output !== null && ARTIFACT.test(output)) return `\`${fetch.url ?? output}\` to \`${output}\``;
  const unpacker = rest.map((c) => commandName(c)).find((n) => n !== null && UNPACKERS.has(n));
  if (unpacker !== undefined) return `\`${fetch.url ?? 'a URL'}\` into \`${unpacker}\``;
  if (output !== null) {
    const base = output.slice(output.lastIndexOf('/') + 1);
    if (base !== '' && madeExecutable().has(base)) return `\`${fetch.url ?? output}\` to the executable \`${output}\``;
  }
  return null;
}

/** The words of the download pre-filter below (file-scripts.ts): most scripts have none and are skipped in O(1). */
const FETCHES = wordMask('curl', 'wget', 'iwr', 'irm', 'webrequest', 'restmethod', 'downloadfile', 'downloadstring', 'downloaddata');

/**
 * Later steps of the same job may verify what an earlier one downloaded (`sha256sum -c` in a step of its own).
 * Per job, the index of the last step that verifies is computed once: a job of many downloading steps costs
 * one pass over its scripts, not one per step.
 */
const lastVerifying = new WeakMap<object, number>();
function verifiedInJob(step: Step): boolean {
  const job = step.job;
  if (job === null) return false;
  let last = lastVerifying.get(job);
  if (last === undefined) {
    last = -1;
    for (const s of job.steps) if (typeof s.run?.value === 'string' && verifies(s.run.value)) last = Math.max(last, s.index);
    lastVerifying.set(job, last);
  }
  return last > step.index;
}

/** A package manager's own integrity or authenticity check turned off, by program: the flags that do it. */
const CHECK_OFF: ReadonlyMap<string, { flags: RegExp; check: string }> = new Map([
  ['choco', { flags: /^--?ignore-?checksums?$/i, check: 'the package checksum' }],
  ['apt-get', { flags: /^--allow-unauthenticated$/, check: 'the package signatures' }],
  ['apt', { flags: /^--allow-unauthenticated$/, check: 'the package signatures' }],
  ['yum', { flags: /^--nogpgcheck$/, check: 'the package signatures' }],
  ['dnf', { flags: /^--nogpgcheck$/, check: 'the package signatures' }],
  ['zypper', { flags: /^--no-gpg-checks$/, check: 'the package signatures' }],
  ['rpm', { flags: /^--no(signature|digest)$/, check: 'the package signature or digest' }],
  ['pip', { flags: /^--trusted-host(=.*)?$/, check: 'the index host\'s TLS certificate (`--trusted-host`)' }],
  ['pip3', { flags: /^--trusted-host(=.*)?$/, check: 'the index host\'s TLS certificate (`--trusted-host`)' }],
]);
/** Cheap test before any command is split: none of the flags appears. */
const CHECK_OFF_TEXT = /--?ignore-?checksum|--allow-unauthenticated|--nogpgcheck|--no-gpg-checks|--nosignature|--nodigest|--trusted-host/i;

/** Commands of a script that install with the package manager's integrity check turned off. */
function checksTurnedOff(script: string): { offset: number; program: string; flag: string; check: string }[] {
  if (!CHECK_OFF_TEXT.test(script)) return [];
  const found: { offset: number; program: string; flag: string; check: string }[] = [];
  for (const pipeline of scriptPipelines(script)) {
    for (const command of pipeline.commands) {
      const name = commandName(command.text)?.toLowerCase() ?? null;
      const rule = name === null ? undefined : CHECK_OFF.get(name.replace(/\.exe$/, ''));
      if (rule === undefined || name === null) continue;
      const flag = words(command.text).find((w) => rule.flags.test(w));
      if (flag !== undefined) found.push({ offset: command.offset, program: name, flag: flag.split('=')[0] ?? flag, check: rule.check });
    }
  }
  return found;
}

/** A download the rule reports: the command and why it fetches an artifact. */
export interface UnverifiedDownload {
  /** Offset of the command in the script. */
  offset: number;
  fetch: Fetch;
  evidence: string;
}

/**
 * The downloads of a step's script that nothing verifies (no checksum or signature check in the step or a later
 * step of the job), pipelines that run what they fetch left to pipe-to-shell. Shared with the rules that ask
 * whether a job runs a file nobody checked (personal-access-token).
 */
export function unverifiedDownloads(step: Step): UnverifiedDownload[] {
  const found = scriptOf(step);
  if (found === null || !hasAny(found.words, FETCHES)) return [];
  const script = found.text;
  if (!/\b(curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod)\b|\.Download(File|String|Data)\s*\(/i.test(script)) return [];
  if (verifies(script) || verifiedInJob(step)) return [];
  // Pipelines that run what they fetch are pipe-to-shell's, which reports them more severely.
  const executed = new Set(scriptRemoteRuns(found).map((h) => h.offset));
  let names: Set<string> | undefined;
  const madeExecutable = () => (names ??= executables(script));
  const downloads: UnverifiedDownload[] = [];
  for (const pipeline of scriptPipelines(script)) {
    if (executed.has(pipeline.offset)) continue;
    // A here-document the script only holds as text (an issue body that shows a `curl` command) runs nothing.
    if (inTextHeredoc(script, pipeline.offset)) continue;
    pipeline.commands.forEach((command, i) => {
      // `fetchOf` needs these words in the command too: most commands, even in these scripts, have none.
      if (!hasAny(commandWords(command.text), FETCHES)) return;
      const fetch = fetchOf(command.text);
      if (fetch === null || isLocalUrl(fetch.url)) return;
      // Another run's artifact, fetched from GitHub's API: what it holds is judged where it is used (artifact-poisoning).
      if (fetchesArtifactArchive(command.text, script)) return;
      const rest = pipeline.commands.slice(i + 1).map((c) => c.text);
      const evidence = artifactEvidence(fetch, rest, madeExecutable);
      if (evidence !== null) downloads.push({ offset: command.offset, fetch, evidence });
    });
  }
  return downloads;
}

/** Why a download from this origin is LOW whatever the job holds. */
function originReason(origin: Exclude<DownloadOrigin, { kind: 'mutable' }>): string {
  switch (origin.kind) {
    case 'own':
      return ` LOW: it is served from ${origin.text}, so whoever can change it already maintains this repository; a checksum only makes the build reproducible.`;
    case 'platform':
      return ` LOW: it is served from ${origin.text}, published by the party that runs the runner itself.`;
    case 'vendor':
      return ` LOW: it is the official ${origin.tool} ${origin.named ? 'installer' : 'installer or distribution'}, served over HTTPS from ${origin.where}: whoever controls it controls the ${origin.tool} the job then runs, so it adds no party the job does not already trust by using ${origin.tool} at all. Pinning a version with a committed checksum is the hardening.`;
    case 'versioned':
      return origin.publisher
        ? ` LOW: it names the fixed version \`${origin.version}\` in ${origin.where}, the tool's own publisher, over HTTPS: a published version is uploaded once and not replaced in the normal course, and the only one who can replace it is that publisher (or whoever takes over its release account), whose code the job runs by using the tool at all; a committed checksum is defense in depth.`
        : ` LOW: it names the fixed version \`${origin.version}\` in ${origin.where}, over HTTPS: a published version is uploaded once and not replaced in the normal course, unlike a tag or \`latest\`, so swapping it means compromising that archive and a committed checksum is defense in depth.`;
  }
}

/** A fixed version of someone else's archive in a job whose build ships. */
function shippedReason(origin: Extract<DownloadOrigin, { kind: 'versioned' }>, supplies: string): string {
  return ` MEDIUM: it names the fixed version \`${origin.version}\` in ${origin.where}, so only a compromise of that archive (or of the account that uploads to it) can swap it, but what this job builds ships: ${supplies}, and a replaced version would reach every user of the release with nothing but a committed checksum to stop it.`;
}

/** Who can change a download the rule rates MEDIUM, what they reach, and what stands in the way. */
function mediumReason(origin: Extract<DownloadOrigin, { kind: 'mutable' }>, supplies: string): string {
  const who = origin.plain
    ? `it is fetched over plain HTTP, so anyone on the network path (or whoever controls ${origin.host ?? 'the host'}) can swap it`
    : origin.host === null
      ? 'whoever controls the host it is fetched from (one the scan cannot read) can swap it'
      : `whoever controls ${origin.host} (its publisher, or whoever takes over their account or server) can swap it, and ${versionText(origin)}`;
  return ` MEDIUM: ${who}; ${supplies}. Nothing but a committed checksum stands in the way; the one who can change it is that upstream, not an outside GitHub user.`;
}

/** What a changeable address says of its version (never "no version" where a variable the scan cannot read stands for it). */
function versionText(origin: Extract<DownloadOrigin, { kind: 'mutable' }>): string {
  switch (origin.why) {
    case 'moving':
      return `the address points to \`${(origin.moving ?? '').replace(/`/g, '')}\`, a name whose contents move`;
    case 'unread':
      return `the version in the address comes from \`${(origin.variable ?? '').slice(0, 80).replace(/`/g, '')}\`, which the scan cannot resolve to a fixed value (set at run time, or with no default), so it may name no fixed version`;
    case 'file':
      return 'the address names a version only in its file name, in a directory that is not per-version, where a file can be replaced under the same name';
    default:
      return origin.platform === undefined
        ? 'the address names no fixed version'
        : `the address names no fixed version (its variable part, \`${origin.platform.slice(0, 80).replace(/`/g, '')}\`, names an architecture or a platform, not a version)`;
  }
}

/** Why a program downloaded where tools go is LOW when nothing later in the job runs it. */
function unusedReason(output: string): string {
  output = output.slice(0, 200);
  const file = output.replace(/\\/g, '/').slice(output.replace(/\\/g, '/').lastIndexOf('/') + 1).replace(/[`\\]/g, '');
  return ` LOW: it is saved as \`${output.replace(/[`\\]/g, '')}\`, and nothing later in the job runs it (no command calls \`${file.replace(/\.exe$/i, '')}\` by name or path, nor a tool known to call it) or hands the file on, so a swapped file changes nothing this job does or ships.`;
}

/** Why a swapped download or package is LOW here: the job (or the jobs running this action) supplies nothing. */
function lowReason(step: Step, what: 'file' | 'package', minor: MinorSecrets, uncalled: string | null): string {
  const action = step.job === null;
  if (uncalled !== null) return ` LOW: ${uncalled}.`;
  return ` LOW: ${action ? 'the jobs that run this action hold' : 'the job holds'} ${nothingWorthText(minor)} and hand${action ? '' : 's'} no build to a publishing job, so a swapped ${what} changes only this run.`;
}

export default defineWorkflowRule({
  meta: {
    id: 'download-without-checksum',
    category: 'CICD-SEC-9',
    title: 'Downloaded binary or archive not verified',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A `run:` script downloads an archive, package, binary or script with `curl`/`wget` (or PowerShell) and nothing in the step checks a checksum or signature (`sha256sum -c`, `shasum`, `gpg --verify`, `cosign verify`, `gh attestation verify`, `slsa-verifier`, `minisign`); or a package manager installs with its own check turned off (`choco --ignore-checksums`, `apt-get --allow-unauthenticated`, `dnf --nogpgcheck`, `pip --trusted-host`).',
    recommendation:
      'Commit the expected SHA-256 next to the version and check it before use (`echo "<sha256>  file.tar.gz" | sha256sum -c -`), or verify the publisher\'s signature or attestation; better, install through a pinned package manager or a SHA-pinned setup action.',
  },
  create: (context) => ({
    step(step) {
      const found = scriptOf(step);
      if (found === null) return;
      // A package manager told to skip its own integrity check: whoever controls the package's host or the
      // network path swaps what gets installed, as with a download nothing verifies.
      for (const off of checksTurnedOff(found.text)) {
        const low = context.runs.suppliesNothing(step);
        context.report({
          node: found.run,
          offset: valueOffsetToSource(step.owner.file, found.run, off.offset),
          severity: low ? 'LOW' : 'MEDIUM',
          message:
            `\`${off.program}\` installs with \`${off.flag}\`, which turns off its check of ${off.check}, so a package swapped on its host or on the way is installed and run.` +
            (low
              ? lowReason(step, 'package', context.runs.minorAt(step), context.runs.uncalledNote(step))
              : ` MEDIUM: whoever controls the package's host (or the network path, for a check of the host's certificate) can swap it; ${context.runs.supplyText(step)}.`),
          facts: step.job === null ? [] : [...holdingFacts(context.runs.job(step.job)), ...feedFacts(context.runs, step.job), ...runFact(context.runs, step)],
        });
      }
      const downloads = unverifiedDownloads(step);
      if (downloads.length === 0) return;
      const run = found.run;
      // For the attack paths: what the job holds (a publish), whether it feeds one, and when the step runs (run-model/facts.ts).
      const facts = step.job === null ? [] : [...holdingFacts(context.runs.job(step.job)), ...feedFacts(context.runs, step.job), ...runFact(context.runs, step)];
      // Whoever controls the download's location (or takes it over) runs their file in the job: what they gain is
      // what the job holds (docs/severity.md, the supply-chain rules). The repository's own or its owner's
      // content, GitHub's, a vendor's official installer and a fixed version of a per-version archive are LOW
      // (download-origin.ts); so is anything in a job that holds no write scope, secret, OIDC token, self-hosted
      // machine or publish and hands no build to a job that publishes. A composite action's step is judged at
      // the job steps that call it (MEDIUM when no workflow here calls it).
      const supplies = !context.runs.suppliesNothing(step);
      let executableNames: Set<string> | undefined;
      for (const { offset, fetch, evidence } of downloads) {
        // A file of this repository at the run's own commit or a fixed one: its own code, nothing to verify.
        if (context.runs.identity !== null && ownFileAtCommit(step, found.text, offset, fetch.url, context.runs.identity) !== null) continue;
        const origin = downloadOrigin(step, found.text, offset, fetch.url, context.runs.identity, outputFile(fetch));
        // A fixed version of someone else's archive stays MEDIUM only where what the job builds ships: a replaced
        // version would reach every user of the release, and the checksum is the one check before it does.
        // The tool's own publisher is the one who could replace its pinned version, and the job runs its code anyway.
        const ships = origin.kind === 'versioned' && !origin.publisher && context.runs.shipsRelease(step);
        const rated = ships ? false : origin.kind !== 'mutable' || !supplies;
        // A program saved where tools go that nothing later in the job runs (by path, by name, or through a tool
        // known to call it) nor hands on: swapping it changes nothing the job does or ships (tool-use.ts).
        const output = outputFile(fetch);
        const unused =
          !rated && output !== null && step.job !== null &&
          downloadedToolUnused(context.runs.job(step.job), step, offset, output, (executableNames ??= executables(found.text)).has(output.slice(output.lastIndexOf('/') + 1)));
        const low = rated || unused;
        context.report({
          node: run,
          offset: valueOffsetToSource(step.owner.file, run, offset),
          severity: low ? 'LOW' : 'MEDIUM',
          message:
            `\`${fetch.program}\` downloads ${evidence} and nothing in the step verifies its checksum or signature before it is used.` +
            (unused && output !== null
              ? unusedReason(output)
              : origin.kind === 'versioned' && ships
              ? shippedReason(origin, context.runs.supplyText(step))
              : origin.kind !== 'mutable'
                ? originReason(origin)
                : low
                  ? lowReason(step, 'file', context.runs.minorAt(step), context.runs.uncalledNote(step))
                  : mediumReason(origin, context.runs.supplyText(step))),
          facts,
        });
      }
    },
  }),
});

/**
 * Which runner a job asks for: a self-hosted one (the `self-hosted` label, in a literal, an expression or a
 * matrix value, or a runner group or label named after another cloud's machine, which no GitHub-hosted runner
 * is), a runner group or a label no GitHub-hosted runner has (self-hosted or the organisation's larger runners:
 * the workflow cannot tell), or only GitHub-hosted and managed ephemeral runners (a managed
 * service's label, or a label naming the VM image a fresh machine is made from for each job).
 */
import { expressionsOf } from '../expressions/extract.js';
import { contextPath, Literal } from '../expressions/parse.js';
import type { Job } from '../model/workflow.js';
import { asList, get, getMap, getScalar, isMap, keyText, stringScalars, type YNode, type YScalar } from '../yaml/model.js';
import { valueSources } from './expression-values.js';
import { expandMatrix } from './matrix-values.js';
import { flatMap } from '../model/arrays.js';
import { ScanCache } from '../model/scan-cache.js';
import { scannedRepository } from './scanned-repository.js';

const LABEL = 'self-hosted';

export function isLabel(text: string): boolean {
  return text.trim().toLowerCase() === LABEL;
}

/** A string literal naming the label, or a JSON literal (for `fromJSON`) listing it. */
function literalHasLabel(text: string): boolean {
  if (isLabel(text)) return true;
  if (!text.toLowerCase().includes(LABEL)) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return (Array.isArray(parsed) ? parsed : [parsed]).some((v) => typeof v === 'string' && isLabel(v));
  } catch {
    return false;
  }
}

/** The scalar values of a matrix axis list (or a lone scalar), as text; null for anything else. */
function axisValues(node: YNode): string[] | null {
  const items = node.kind === 'seq' ? node.items : [node];
  const values: string[] = [];
  for (const item of items) {
    if (item.kind !== 'scalar' || item.value === null) return null;
    values.push(String(item.value));
  }
  return values;
}

/**
 * The values matrix axis `name` takes in the legs that actually run: the axis' values, minus those every
 * leg of which an `exclude` entry removes, plus `include` entries. Null when the matrix cannot be read.
 */
function matrixAxisValues(job: Job, name: string, limit = 256): YNode[] | null {
  const matrix = getMap(job.strategy, 'matrix');
  if (matrix === undefined) return null;
  const axes = new Map<string, { nodes: readonly YNode[]; values: string[] }>();
  const excludes: Map<string, string>[] = [];
  const included: YNode[] = [];
  for (const pair of matrix.pairs) {
    const key = keyText(pair.key).toLowerCase();
    if (key === 'include' || key === 'exclude') {
      for (const entry of asList(pair.value)) {
        if (!isMap(entry)) continue;
        if (key === 'include') {
          for (const p of entry.pairs) if (keyText(p.key).toLowerCase() === name) included.push(p.value);
          continue;
        }
        const exclude = new Map<string, string>();
        for (const p of entry.pairs) if (p.value.kind === 'scalar' && p.value.value !== null) exclude.set(keyText(p.key).toLowerCase(), String(p.value.value));
        excludes.push(exclude);
      }
      continue;
    }
    const values = axisValues(pair.value);
    axes.set(key, { nodes: pair.value.kind === 'seq' ? pair.value.items : [pair.value], values: values ?? [] });
  }
  const axis = axes.get(name);
  if (axis === undefined) return included;
  if (excludes.length === 0) return [...axis.nodes, ...included];
  // Enumerate the legs (bounded) and keep the axis values some surviving leg has.
  let legs: Map<string, string>[] = [new Map()];
  for (const [key, { values }] of axes) {
    if (values.length === 0) continue;
    legs = flatMap(legs, (leg) => values.map((v) => new Map([...leg, [key, v]])));
    if (legs.length > limit) return [...axis.nodes, ...included];
  }
  const surviving = legs.filter((leg) => !excludes.some((ex) => [...ex].every(([k, v]) => leg.get(k) === v)));
  const kept = new Set(surviving.map((leg) => leg.get(name)));
  return [...axis.nodes.filter((n) => n.kind === 'scalar' && kept.has(String(n.value))), ...included];
}

/** Whether some value of matrix axis `name` that a leg runs with is or lists the label. */
function matrixHasLabel(job: Job, name: string): boolean {
  const candidates = matrixAxisValues(job, name) ?? [];
  return candidates.some((node) => stringScalars(node).some((s) => isLabel(String(s.value))));
}

/** How a `runs-on` scalar selects a self-hosted runner, or null. */
function selfHostedScalar(job: Job, scalar: YScalar): string | null {
  if (typeof scalar.value !== 'string') return null;
  const occurrences = expressionsOf(job.workflow.file, scalar);
  if (occurrences.length === 0) return isLabel(scalar.value) ? 'the `self-hosted` label' : null;
  for (const occurrence of occurrences) {
    if (occurrence.expr === null) continue;
    // A branch the repository's own name rules out (`endsWith(github.repository, '-enterprise') && ...`) is not taken.
    for (const source of valueSources(occurrence.expr, [], job.workflow.repository ?? null)) {
      if (source instanceof Literal) {
        if (typeof source.token.value === 'string' && literalHasLabel(source.token.value)) return 'the `self-hosted` label in its expression';
        continue;
      }
      const path = contextPath(source);
      if (path?.[0] === 'matrix' && path[1] !== undefined && matrixHasLabel(job, path[1])) {
        return `the \`self-hosted\` label in matrix value \`matrix.${path[1]}\``;
      }
    }
  }
  return null;
}

/**
 * Labels of GitHub-hosted runners (standard and arm images, the macOS larger runners' `-large`/`-xlarge`; Linux
 * and Windows larger runners carry names their owner chose). Source: the runner images' labels,
 * https://docs.github.com/en/actions/using-github-hosted-runners/about-github-hosted-runners (`ubuntu-24.04-arm`,
 * `windows-11-arm`, `macos-15-xlarge`) and https://github.com/actions/runner-images#available-images (`windows-2025-vs2026`,
 * and `windows-11-vs2026-arm`, Windows 11 Arm64 with Visual Studio 2026, generally available since August 2026: an image
 * and an architecture, so up to two such suffixes).
 */
const GITHUB_HOSTED = /^(ubuntu|windows|macos)-(latest|\d+(\.\d+)?)(-(arm|arm64|large|xlarge|intel|x64|vs\d+)){0,2}$|^ubuntu-slim$/i;
/** Labels of managed, ephemeral runner services (one fresh machine per job): not the persistence risk this rule is about. */
const MANAGED = /^(blacksmith|namespace-profile|nscloud|buildjet|depot-|warp-|ubicloud|cirun|runs-on[=/]|actuated|codspeed-)/i;

/**
 * Names organisations give GitHub's larger hosted runners: an OS image and a size (`ubuntu-latest-8-cores`,
 * `ubuntu-22.04-16core`, `gemini-cli-ubuntu-16-core`, `x64-ubuntu24-64-core`, `windows-2022-large`,
 * `github-ubuntu-24.04-x86_64-8`, "Default Larger Runners"). A larger runner's label is the name its owner gave it
 * ("Larger runners are automatically assigned a default label that corresponds to the runner name. You cannot
 * add custom labels to larger runners"), and GitHub's own examples name the image and the cores
 * (`ubuntu-20.04-16core`): https://docs.github.com/en/actions/how-tos/manage-runners/larger-runners/use-larger-runners.
 * Such a name is probably a GitHub-hosted larger runner, a fresh machine per job, not evidence of a persistent
 * self-hosted one. Sizes GitHub's documentation does not use (`-xl`, `-small`) are not read as one.
 */
const LARGER_RUNNER = /^github-|larger runners|(?=.*\b(ubuntu|windows|macos)(\d+(\.\d+)?)?\b).*(\d+-?cores?\b|\d+core\b|\blarge\b|\bxlarge\b|\d+vcpu)/i;

/**
 * A label that is a container or VM image reference: a registry host with a dot (and maybe a port), a path, and a
 * tag or digest (`ghcr.io/org/macos-sequoia-xcode:16`, `registry.example.com/vm/ubuntu@sha256:...`). VM-per-job
 * orchestrators (tart-based Cirrus runners and the like) register a runner for one job from the image the label
 * names and delete the VM afterwards, so like the managed services nothing a job leaves behind meets the next.
 */
const IMAGE_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d{1,5})?\/[a-z0-9._-]+(?:\/[a-z0-9._-]+)*(?::[\w][\w.-]{0,127}|@sha256:[0-9a-f]{64})$/i;

export function isImageLabel(text: string): boolean {
  return IMAGE_LABEL.test(text.trim());
}

/**
 * Another cloud's machines in a runner's name. GitHub-hosted runners, larger runners in runner groups included, run
 * on GitHub's own infrastructure (Azure: https://docs.github.com/en/actions/concepts/runners/github-hosted-runners,
 * "GitHub hosts Linux and Windows runners on virtual machines in Microsoft Azure"); GitHub hosts none on AWS EC2
 * or Google Compute Engine machine types. So a label or group whose name names AWS or Google Cloud (`aws`, `ec2`,
 * `gcp`, `gce` as a word) or an EC2 instance type / GCE machine type (in their documented shapes) is a machine
 * its owner runs there: a self-hosted runner (actions-runner-controller, terraform-aws-github-runner and the like).
 * `azure` is no evidence: GitHub's own runners are Azure machines (and hosted runners can join an Azure network).
 * A cloud's managed Kubernetes service (`aks`, `eks`, `gke`) is: GitHub runs no hosted runner in its customers'
 * clusters, so such a name is a runner scale set of actions-runner-controller, whose pods run in the owner's
 * cluster and network (https://docs.github.com/en/actions/concepts/runners/actions-runner-controller).
 * The name is split into words on `-`, `_`, `.` and spaces; words are matched whole, never as substrings.
 */
const CLOUD_WORDS: ReadonlyMap<string, string> = new Map([
  ['aws', 'AWS'],
  ['ec2', 'AWS'],
  ['gcp', 'Google Cloud'],
  ['gce', 'Google Cloud'],
  ['aks', "Azure Kubernetes Service, the owner's own cluster"],
  ['eks', "Amazon EKS, the owner's own cluster"],
  ['gke', "Google Kubernetes Engine, the owner's own cluster"],
]);
/**
 * An EC2 instance family: a documented family prefix, one generation digit, attribute letters
 * (https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html: `g4dn`, `c6i`, `p4d`, `m7gd`,
 * `x2iedn`, `hpc7g`, `inf2`, `trn1n`). One digit keeps out `x64`, `arm64`, `amd64`; the letter sets keep out
 * `k8s`, `e2e`, `p2p`. Apple's chips (`m1` to `m4`: `macos-m1-large`) and NVIDIA's T4 (`gpu-t4-large`, the GPU of
 * GitHub's own GPU larger runners) are not read as EC2's old `m1`-`m4` families or a `t4` (EC2's is `t4g`).
 */
const EC2_FAMILY = /^(?!(?:m[1-4]|t4)$)(?:a|c|d|dl|f|g|gr|h|hpc|i|im|inf|is|m|mac|p|r|t|trn|u|vt|x|z)\d[abdegiqnz]{0,4}$/;
/** An EC2 size (`large`, `xlarge`, `2xlarge`, `metal`); the burstable `t` families also come smaller. */
const EC2_SIZE = /^(?:large|xlarge|\d{1,2}xlarge|metal)$/;
const EC2_SMALL = /^(?:nano|micro|small|medium)$/;
/**
 * A GCE machine series and type (https://cloud.google.com/compute/docs/machine-resource: `n2-standard-8`,
 * `c3-highcpu-22`, `a2-highgpu-1g`, `e2-highmem-4`). The general classes need the vCPU count after them; the
 * accelerator and memory-optimized ones are GCE's own words and count alone.
 */
const GCE_SERIES = /^[acefghmntxz]\d[a-z]?$/;
const GCE_CLASS = /^(?:standard|highmem|highcpu)$/;
const GCE_OWN_CLASS = /^(?:highgpu|megagpu|ultragpu|edgegpu|ultramem|megamem|hypermem)$/;

/**
 * Data-centre GPUs GitHub's hosted runners do not have: its GPU larger runners carry an NVIDIA Tesla T4
 * (https://docs.github.com/en/actions/concepts/runners/larger-runners, "GPU-powered larger runners"), so a label or
 * group that names another NVIDIA or AMD accelerator as a word (`linux-b200`, `gpu-h100-8`) is a machine its owner
 * runs. `t4` is not listed; short model names that are also common words (`l4`, `a10`) are left out.
 */
const OTHER_GPUS: ReadonlySet<string> = new Set(['a100', 'a10g', 'h100', 'h200', 'b100', 'b200', 'gb200', 'l40', 'l40s', 'v100', 'p100', 'mi250', 'mi250x', 'mi300', 'mi300x']);

/**
 * Why a runner label or group name is a machine on another cloud, in words (`names an AWS EC2 instance type
 * (\`g4dn.2xlarge\`)`), or null when it names none.
 */
export function otherCloudEvidence(name: string): string | null {
  if (name.length > 256 || name.includes('${{')) return null;
  const words = withoutOwner(name.toLowerCase()).split(/[-_.\s]+/).filter((w) => w !== '');
  for (let i = 0; i + 1 < words.length; i++) {
    const [family, size] = [words[i]!, words[i + 1]!];
    if (EC2_FAMILY.test(family) && (EC2_SIZE.test(size) || (/^t\d/.test(family) && EC2_SMALL.test(size)))) {
      return `names an AWS EC2 instance type (\`${family}.${size}\`)`;
    }
    if (GCE_SERIES.test(family) && (GCE_OWN_CLASS.test(size) || (GCE_CLASS.test(size) && /^\d{1,3}$/.test(words[i + 2] ?? '')))) {
      const count = /^\d{1,3}g?$/.test(words[i + 2] ?? '') ? `-${words[i + 2]!}` : '';
      return `names a Google Compute Engine machine type (\`${family}-${size}${count}\`)`;
    }
  }
  const word = words.find((w) => CLOUD_WORDS.has(w));
  if (word !== undefined) return `names ${CLOUD_WORDS.get(word)!} (\`${word}\`)`;
  const gpu = words.find((w) => OTHER_GPUS.has(w));
  return gpu === undefined ? null : `names a GPU GitHub's hosted runners do not have (\`${gpu}\`; their GPU larger runners carry an NVIDIA T4)`;
}

/**
 * A runner name less a leading name of the scanned repository's owner (`aws-powertools_ubuntu-latest_8-core` of the
 * `aws-powertools` organisation): an owner names its runners after itself, and its name's words (`aws`) are its
 * choice, not a cloud's. Unchanged when the scan does not know the repository.
 */
function withoutOwner(name: string): string {
  const owner = scannedRepository()?.owner;
  if (owner === undefined || name.length <= owner.length + 1 || !name.startsWith(owner)) return name;
  return /[-_.\s]/.test(name.charAt(owner.length)) ? name.slice(owner.length + 1) : name;
}

/** Why GitHub's hosted runners are not what such a name selects, in words, after `otherCloudEvidence`. */
const NOT_HOSTED = "GitHub-hosted runners, larger ones included, run only on GitHub's own (Azure) machines";

/** A literal `runs-on` label that is neither GitHub-hosted nor a managed service: a self-hosted or larger runner. */
function customLabel(text: string): boolean {
  const label = text.trim();
  if (label === '' || label.includes('${{') || GITHUB_HOSTED.test(label) || MANAGED.test(label) || isImageLabel(label) || isLabel(label)) return false;
  // A name of another cloud's machine is no larger runner's, whatever else it says (`ubuntu-aws-xlarge`).
  return !LARGER_RUNNER.test(label) || otherCloudEvidence(label) !== null;
}

/**
 * True when one of the labels (a runner must carry them all) names the image a fresh VM is made from for the job
 * (`runs-on: [self-hosted, macOS, arm64, ghcr.io/org/image:tag]`): a VM-per-job orchestrator's runner, not a
 * machine that keeps state between jobs. A label given by an expression counts when every value the matrix gives it is one.
 */
function provisionedPerJob(job: Job, labels: readonly YNode[]): boolean {
  return labels.some((item) => {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') return false;
    const values = item.value.includes('${{') ? expandMatrix(job, item.value) : [item.value];
    return values !== null && values.length > 0 && values.every(isImageLabel);
  });
}

export type Selection = {
  node: YScalar;
  how: string;
  certain: boolean;
  /**
   * Not `certain`, and the job asks for a single label and no runner group of its own: a GitHub-hosted larger runner
   * carries exactly one label, its name, which its owner chose (`windows`, `linux`, `gpu` are possible names), so the
   * label may be one as much as a self-hosted runner's. Several labels at once (`[linux, x64, gpu]`) or a runner
   * group are a self-hosted runner's more likely, and keep the one-step-lower reading.
   */
  maybeLarger: boolean;
};

/**
 * The first runner group or label (a matrix value a leg runs with included) whose name is another cloud's machine
 * (`otherCloudEvidence`): a certain self-hosted runner, with why in `how`. Null when none is.
 */
function otherCloud(job: Job, group: YScalar | undefined, labels: readonly YNode[]): Selection | null {
  // The group, then each label: no list of them is built (this runs for every job of every scan).
  if (group !== undefined) {
    const found = cloudSelection(job, group, 'runner group');
    if (found !== null) return found;
  }
  for (const node of labels) {
    if (node.kind !== 'scalar') continue;
    const found = cloudSelection(job, node, 'label');
    if (found !== null) return found;
  }
  return null;
}

/** `otherCloud` for one runner group or label (`kind`). */
function cloudSelection(job: Job, node: YScalar, kind: string): Selection | null {
  if (typeof node.value !== 'string') return null;
  const values = node.value.includes('${{') ? (expandMatrix(job, node.value) ?? []) : [node.value];
  for (const value of values) {
    const name = value.trim();
    if (!customLabel(name)) continue;
    const evidence = otherCloudEvidence(name);
    if (evidence !== null) return { node, how: `${kind} \`${name}\`, which ${evidence}: ${NOT_HOSTED}`, certain: true, maybeLarger: false };
  }
  return null;
}

/** `selfHosted` per job: the run model's holdings and three rules ask for every job. */
const SELF_HOSTED = new ScanCache<Job, Selection | null>();

/**
 * The node of `runs-on` that selects a self-hosted runner, with how; `certain` for the `self-hosted` label and
 * for a group or label named after another cloud's machine, false for other custom labels and groups.
 */
export function selfHosted(job: Job): Selection | null {
  let found = SELF_HOSTED.get(job);
  if (found === undefined) {
    found = readSelfHosted(job);
    SELF_HOSTED.set(job, found);
  }
  return found;
}

function readSelfHosted(job: Job): Selection | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  // Most jobs ask for GitHub-hosted labels alone, written out (`ubuntu-latest`, `[ubuntu-24.04-arm]`): none is the
  // `self-hosted` label, a VM image (no `/`), another cloud's machine or a custom label, so none of the reads below
  // can find one.
  if (runsOn.kind !== 'map' && asList(runsOn).every((item) => item.kind === 'scalar' && typeof item.value === 'string' && !item.value.includes('${{') && GITHUB_HOSTED.test(item.value.trim()))) return null;
  // `runs-on: { group: ..., labels: [...] }`: the labels decide; a group alone may be GitHub-hosted larger runners.
  const labels = runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn;
  // A label that names the VM image the job gets: a fresh machine per job, whatever the other labels say; so does
  // a RunsOn label (its other labels, `runner=...`, `family=...`, are its options).
  if (provisionedPerJob(job, asList(labels)) || ownCloudRunner(job) !== null) return null;
  for (const item of asList(labels)) {
    if (item.kind !== 'scalar') continue;
    const how = selfHostedScalar(job, item);
    if (how !== null) return { node: item, how, certain: true, maybeLarger: false };
  }
  // No `self-hosted` label: a runner group, or labels no GitHub-hosted runner has, still route to
  // self-hosted runners (or to the organisation's larger runners, which the workflow cannot tell apart), unless
  // the name is another cloud's machine, which no GitHub-hosted runner is.
  const group = runsOn.kind === 'map' ? getScalar(runsOn, 'group') : undefined;
  const cloud = otherCloud(job, group, asList(labels));
  if (cloud !== null) return cloud;
  if (group !== undefined && typeof group.value === 'string' && customLabel(group.value)) {
    return { node: group, how: `runner group \`${group.value}\``, certain: false, maybeLarger: false };
  }
  const items = asList(labels);
  for (const item of items) {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') continue;
    const values = item.value.includes('${{') ? expandMatrix(job, item.value) : [item.value];
    const custom = (values ?? []).find(customLabel);
    // One label (a matrix value is one per leg unless it is a list): what a larger runner's name would be.
    const single = items.length === 1 && group === undefined && (values ?? []).every((v) => !v.trim().startsWith('['));
    if (custom !== undefined) {
      return single
        ? { node: item, how: `label \`${custom.trim()}\`, which no standard GitHub-hosted runner has`, certain: false, maybeLarger: true }
        : { node: item, how: `label \`${custom.trim()}\`, which no GitHub-hosted runner has`, certain: false, maybeLarger: false };
    }
  }
  return null;
}

/**
 * A label or runner group name that suggests ephemeral runners: Actions Runner Controller scale sets (`arc` as a
 * word of the name, `arc-runner-set`, `...-runner-set`, `...-scale-set`, or a cloud's managed Kubernetes service,
 * `aks`, `eks`, `gke`, where ARC runs them) or `ephemeral` in the name. ARC gives
 * each job a fresh pod by default, so what a job leaves behind may not meet the next one; the workflow cannot
 * prove it, so this only tempers what is claimed (https://docs.github.com/en/actions/concepts/runners/actions-runner-controller).
 */
const EPHEMERAL_NAME = /(^|[^a-z0-9])(?:arc|aks|eks|gke)([^a-z0-9]|$)|runner-?set|scale-?set|ephemeral/i;

/** True when one of the job's `runs-on` labels or its runner group (matrix values included) suggests ephemeral runners. */
export function ephemeralHint(job: Job): boolean {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return false;
  const group = runsOn.kind === 'map' ? getScalar(runsOn, 'group') : undefined;
  const items = [...(group === undefined ? [] : [group]), ...asList(runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn)];
  return items.some((item) => {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') return false;
    const values = item.value.includes('${{') ? (expandMatrix(job, item.value) ?? []) : [item.value];
    return values.some((v) => EPHEMERAL_NAME.test(v));
  });
}

/**
 * A RunsOn runner's first label (`runs-on=${{ github.run_id }}`, `runs-on=${{ github.run_id }}/runner=4cpu-linux-x64`,
 * `runs-on/runner=...`): RunsOn starts a fresh EC2 machine for each job inside the repository owner's own AWS
 * account (https://runs-on.com/configuration/job-labels/). Nothing stays behind for the next job, as with the other
 * managed services, but whatever runs there runs in that account, with the machine's instance profile (IAM role).
 */
const RUNS_ON_LABEL = /^runs-on[=/]/i;

/**
 * The `runs-on` label that asks for a machine the owner's cloud account starts for this job alone (a RunsOn label),
 * or null: a managed per-job service to the run model (`selfHosted` reads none), reported by self-hosted-runner only
 * where an outsider's code runs there, for the account's role and network.
 */
export function ownCloudRunner(job: Job): YScalar | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  const labels = runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn;
  for (const item of asList(labels)) if (item.kind === 'scalar' && typeof item.value === 'string' && RUNS_ON_LABEL.test(item.value.trim())) return item;
  return null;
}

/**
 * True when every runner the job can get is GitHub-hosted (standard or larger) or a managed ephemeral service:
 * a fresh machine per job whose runner user already has passwordless `sudo`. False when it may be self-hosted
 * or `runs-on` cannot be read (an expression the matrix does not resolve, a runner group).
 */
export function hostedRunnersOnly(job: Job): boolean {
  const runsOn = job.runsOn;
  if (runsOn === undefined || selfHosted(job) !== null) return false;
  if (runsOn.kind === 'map' && get(runsOn, 'group') !== undefined) return false;
  const labels = asList(runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn);
  if (labels.length === 0) return false;
  if (provisionedPerJob(job, labels)) return true;
  return everyLabelValue(job, labels, (v) => GITHUB_HOSTED.test(v) || MANAGED.test(v) || LARGER_RUNNER.test(v));
}

/**
 * True when every label (a runner must carry them all) is a string whose every value (matrix values included) passes
 * `test`, trimmed; false for an empty list, a non-scalar or an expression the matrix does not resolve.
 */
function everyLabelValue(job: Job, labels: readonly YNode[], test: (value: string) => boolean): boolean {
  return labels.length > 0 && labels.every((item) => {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') return false;
    const values = item.value.includes('${{') ? expandMatrix(job, item.value) : [item.value];
    return values !== null && values.length > 0 && values.every((v) => test(v.trim()));
  });
}

/**
 * Images of GitHub-hosted runners that GitHub has retired: a job that asks for one gets no runner and fails before
 * its first step ("no enabled runners online"). From GitHub's changelog: `ubuntu-16.04` (September 2021),
 * `windows-2016` (March 2022), `macos-10.15` (August 2022), `ubuntu-18.04` (April 2023), `macos-11` (June 2024),
 * `macos-12` (December 2024), `ubuntu-20.04` (April 2025), `windows-2019` (June 2025), `macos-13` and its larger
 * runners (December 2025).
 */
const RETIRED_HOSTED = /^(?:ubuntu-(?:16|18|20)\.04|macos-(?:10\.15|11|12|13)(?:-(?:large|xlarge|xl))?|windows-(?:2016|2019))$/i;

/** What `retiredLegs` finds: every leg of the job asks for a retired image, or some (a matrix) do. */
interface RetiredLegs {
  all: boolean;
  some: boolean;
}

const NO_RETIRED_LEGS: RetiredLegs = { all: false, some: false };
/** `retiredLegs` per job: asked of every job when its workflow is parsed, and again for each job that needs it. */
const RETIRED_LEGS = new ScanCache<Job, RetiredLegs>();

/**
 * Which legs of a job ask for a retired runner image, read once per job. Only a single label counts (a list such as
 * `[self-hosted, ubuntu-20.04]` names a machine of the repository's own); a runner group or an expression the matrix
 * does not resolve is read as able to run. `some` is read only through a matrix (`runs-on: ${{ matrix.os }}`).
 */
function retiredLegs(job: Job): RetiredLegs {
  let found = RETIRED_LEGS.get(job);
  if (found === undefined) {
    found = readRetiredLegs(job);
    RETIRED_LEGS.set(job, found);
  }
  return found;
}

function readRetiredLegs(job: Job): RetiredLegs {
  const runsOn = job.runsOn;
  if (runsOn === undefined || runsOn.kind === 'map') return NO_RETIRED_LEGS;
  const labels = asList(runsOn);
  const label = labels.length === 1 ? labels[0] : undefined;
  if (label?.kind !== 'scalar' || typeof label.value !== 'string') return NO_RETIRED_LEGS;
  if (!label.value.includes('${{')) return RETIRED_HOSTED.test(label.value.trim()) ? { all: true, some: false } : NO_RETIRED_LEGS;
  const values = expandMatrix(job, label.value);
  if (values === null || values.length === 0) return NO_RETIRED_LEGS;
  const retired = values.filter((v) => RETIRED_HOSTED.test(v.trim())).length;
  return retired === 0 ? NO_RETIRED_LEGS : { all: retired === values.length, some: true };
}

/** True when the job's `runs-on` asks only for retired images (`ubuntu-20.04`, or a matrix of only such): it never runs. */
export function retiredRunner(job: Job): boolean {
  return retiredLegs(job).all;
}

/**
 * True when some leg of the job's matrix asks for a retired runner image (`runs-on: ${{ matrix.os }}` with
 * `ubuntu-20.04` among the values) and no job-level `continue-on-error` lets a leg fail: that leg fails without a
 * machine, so the job never succeeds, and a job that needs it (without a status function) never runs.
 */
export function failsOnRetiredLeg(job: Job): boolean {
  return (retiredLegs(job).some && get(job.node, 'continue-on-error') === undefined) || callFails(job, 0);
}

/**
 * True when the job calls a reusable workflow of the repository (`job.called`, set by the repository model) one of
 * whose jobs always runs (no `if:`, no `needs:`) and fails on a retired runner leg (or makes such a call itself, at
 * most three calls deep): the called workflow fails, so the calling job does, and a job that needs it never runs.
 */
export function callFails(job: Job, depth = 0): boolean {
  const called = job.called;
  if (called === undefined || depth >= 3) return false;
  return called.jobs.some((j) => j.if === undefined && j.needs.length === 0 && ((retiredLegs(j).some && get(j.node, 'continue-on-error') === undefined) || callFails(j, depth + 1)));
}

/** The macOS larger runners' labels (`macos-15-large`, `macos-15-xlarge`): GitHub-hosted, but billed as larger runners. */
const LARGER_HOSTED_IMAGE = /-(large|xlarge)$/i;

/**
 * The first `runs-on` label value (matrix values included) that names a GitHub-hosted larger runner: a macOS larger
 * runner's label, or a name in the shape organisations give their larger runners (`LARGER_RUNNER`: an image and a
 * size, `ubuntu-latest-8-cores`) that names no other cloud's machine. Larger runners are billed per minute at a
 * higher rate than standard ones, also for public repositories
 * (https://docs.github.com/en/billing/concepts/product-billing/github-actions). Null when none is.
 */
export function largerRunnerLabel(job: Job): string | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  for (const item of asList(runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn)) {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') continue;
    const values = item.value.includes('${{') ? (expandMatrix(job, item.value) ?? []) : [item.value];
    const larger = values.map((v) => v.trim()).find((v) => v.length <= 256 && (GITHUB_HOSTED.test(v) ? LARGER_HOSTED_IMAGE.test(v) : LARGER_RUNNER.test(v) && otherCloudEvidence(v) === null));
    if (larger !== undefined) return larger;
  }
  return null;
}

/**
 * True when every runner the job can get is a standard GitHub-hosted one (`ubuntu-latest`, `windows-2025`,
 * `macos-15`, `ubuntu-24.04-arm`; not a macOS `-large`/`-xlarge` larger runner): a fresh machine per job, billed per
 * minute only for private repositories and only at the standard rate. False for a runner group, a custom, managed or
 * larger runner's label, or an expression the matrix does not resolve.
 */
export function standardHostedOnly(job: Job): boolean {
  const runsOn = job.runsOn;
  if (runsOn === undefined || runsOn.kind === 'map') return false;
  return everyLabelValue(job, asList(runsOn), (v) => GITHUB_HOSTED.test(v) && !LARGER_HOSTED_IMAGE.test(v));
}

/**
 * GitHub-hosted runners whose jobs GitHub itself stops sooner than the usual 6 hours, with the limit in minutes:
 * `ubuntu-slim` (a single-CPU container runner) ends every job after 15 minutes
 * (https://docs.github.com/en/actions/reference/runners/github-hosted-runners).
 */
const SHORT_LIMITS: readonly [RegExp, number][] = [[/^ubuntu-slim$/i, 15]];

/**
 * The time limit, in minutes, that the runner itself puts on every run of the job, when every runner the job can
 * get has one (`runs-on: ubuntu-slim`, matrix values included; the longest when they differ); null when any may
 * run for GitHub's usual 6 hours or `runs-on` cannot be read.
 */
export function runnerTimeLimit(job: Job): number | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined || runsOn.kind === 'map') return null;
  const labels = asList(runsOn);
  if (labels.length !== 1) return null;
  const item = labels[0];
  if (item?.kind !== 'scalar' || typeof item.value !== 'string') return null;
  const values = item.value.includes('${{') ? expandMatrix(job, item.value) : [item.value];
  if (values === null || values.length === 0) return null;
  let limit = 0;
  for (const value of values) {
    const found = SHORT_LIMITS.find(([label]) => label.test(value.trim()));
    if (found === undefined) return null;
    limit = Math.max(limit, found[1]);
  }
  return limit;
}

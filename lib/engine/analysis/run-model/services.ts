/**
 * What a service container (`jobs.<id>.services.<name>`) is given. A service runs beside the job, not in it: the
 * runner starts it from its definition and the job's steps reach it over the network. It gets only its own
 * `env:`, the host paths its `volumes:` (or `-v` / `--mount` in `options:`) mount and the privileges its
 * `options:` grant; never the job's or workflow's `env:`, the job's other secrets, the token or the runner's
 * memory. Its `credentials:` are used by the runner to pull its image (`docker login` on the runner, in a
 * temporary configuration) and never reach the container.
 *
 * What it holds, as `Holdings` (holdings.ts), for the rules whose severity follows what a compromised image could
 * take: the Docker socket, a host root mount or `--privileged` give it the machine and so everything the job
 * holds; a mount of the workspace gives it the checkout (with its persisted token) and the code later steps run,
 * so everything the job holds, and on a self-hosted runner a directory that stays on the machine for later jobs
 * (what it leaves in `.git`, hooks or configuration, runs in their git commands), as a job container's work
 * directory does (containers.ts); otherwise only the stored secrets and the token its `env:` carries.
 */
import type { Job } from '../../model/workflow.js';
import { occurrencesInFile } from '../file-scalars.js';
import { isGithubToken, secretOccurrences } from '../secrets.js';
import { asList, get, scalarText, type YNode } from '../../yaml/model.js';
import { splitAsHeld, type Holdings } from './holdings.js';

/** A way out of the container: to the runner's machine (`host`) or into the job's workspace (`workspace`). */
export interface ServiceMount {
  reach: 'host' | 'workspace';
  /** In words, for descriptions: "the Docker socket (`/var/run/docker.sock`)", "`--privileged`". */
  text: string;
}

export interface ServiceAccess {
  /** Stored secrets its `env:` carries (never `GITHUB_TOKEN`), in file order. */
  secrets: readonly string[];
  /** Its `env:` carries the job's token (`secrets.GITHUB_TOKEN`, `github.token`). */
  token: boolean;
  /** Mounts and options that reach past the container, in file order (at most a few). */
  mounts: readonly ServiceMount[];
}

/** At most this many volumes, option words and mounts are read or kept: the text is the scanned repository's. */
const MAX_ITEMS = 64;
const MAX_OPTIONS_CHARS = 4000;
const MAX_SHOWN = 60;

/** What the service defined by `service` (the value under its name) is given. */
export function serviceAccess(job: Job, service: YNode): ServiceAccess {
  const file = job.workflow.file;
  const env = get(service, 'env');
  const secrets = new Set<string>();
  let token = false;
  if (env !== undefined) {
    for (const use of secretOccurrences(file, env)) {
      if (isGithubToken(use.name)) token = true;
      else secrets.add(use.name);
    }
    if (!token) token = occurrencesInFile(file, env).some((o) => /\bgithub\s*\.\s*token\b|\bgithub\s*\[\s*'token'\s*\]/i.test(o.span.source));
  }
  return { secrets: [...secrets], token, mounts: containerMounts(service) };
}

/**
 * The mounts and privileges of a container's definition (a service's, or a job container's `volumes:` and
 * `options:`) that reach past the container: the Docker socket, a host directory above it, `--privileged`, a
 * capability that amounts to root (`host`), or the workspace (`workspace`).
 */
export function containerMounts(definition: YNode): ServiceMount[] {
  const mounts: ServiceMount[] = [];
  const add = (mount: ServiceMount | null): void => {
    if (mount !== null && mounts.length < MAX_ITEMS && !mounts.some((m) => m.text === mount.text)) mounts.push(mount);
  };
  for (const volume of asList(get(definition, 'volumes')).slice(0, MAX_ITEMS)) {
    const text = scalarText(volume);
    if (text !== null) add(mountOf(volumeSource(text)));
  }
  const options = scalarText(get(definition, 'options'));
  if (options !== null) for (const mount of optionMounts(options.slice(0, MAX_OPTIONS_CHARS))) add(mount);
  return mounts;
}

/** The host side of a `volumes:` entry (`source:target[:mode]`); null for an anonymous volume (`/data`). */
function volumeSource(volume: string): string | null {
  const text = volume.trim();
  // `${{ github.workspace }}:/src`: an expression holds no `:` of the volume syntax.
  const expression = /^\$\{\{.*?\}\}/.exec(text);
  if (expression !== null) return expression[0] + text.slice(expression[0].length).split(':')[0];
  const parts = text.split(':');
  return parts.length >= 2 ? (parts[0] as string) : null;
}

/** Paths of the runner's work directory: the workspace, `RUNNER_TEMP` (file commands) and the job container's mount of them. */
const WORKSPACE = /^(?:\$\{\{\s*(?:github\.workspace|runner\.workspace|runner\.temp)\s*\}\}|\$\{?(?:GITHUB_WORKSPACE|RUNNER_WORKSPACE|RUNNER_TEMP)\}?|\/home\/runner\/work|\/__w|\.{1,2})(?:\/|$)/;
/** Directories above the Docker socket or the work directory: mounting one mounts them. */
const ANCESTOR = /^\/(?:home|home\/runner|var|var\/run|run)?\/?$/;
const SOCKET = /(?:^|\/)docker\.sock$/;

/** What mounting the host path `source` reaches; null for a named volume or another host path. */
function mountOf(source: string | null): ServiceMount | null {
  if (source === null) return null;
  const path = source.trim();
  const shown = path.length > MAX_SHOWN ? `${path.slice(0, MAX_SHOWN)}…` : path;
  if (SOCKET.test(path)) return { reach: 'host', text: `the Docker socket (\`${shown}\`)` };
  if (ANCESTOR.test(path)) return { reach: 'host', text: `the host directory \`${shown}\`, with the Docker socket and the workspace` };
  if (WORKSPACE.test(path)) return { reach: 'workspace', text: `the workspace (\`${shown}\`)` };
  return null;
}

/** Capabilities that amount to root on the machine (mounting its disks, loading modules, tracing its processes). */
const HOST_CAPABILITIES = new Set(['ALL', 'SYS_ADMIN', 'SYS_MODULE', 'SYS_PTRACE', 'SYS_RAWIO', 'DAC_READ_SEARCH']);

/** The mounts and privileges of a service's `options:` (`docker create` flags). */
function optionMounts(options: string): ServiceMount[] {
  // `${{ github.workspace }}` is one word of the command line: the runner substitutes it before Docker reads it.
  const words = options.replace(/\$\{\{(.*?)\}\}/g, (_match, inner: string) => `\${{${inner.replace(/\s+/g, '')}}}`).split(/\s+/).filter((w) => w !== '').slice(0, MAX_ITEMS * 4);
  const found: ServiceMount[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const [flag, inline] = word.includes('=') && word.startsWith('--') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const value = (): string => (inline ?? words[++i] ?? '').replace(/^["']|["']$/g, '');
    if (flag === '--privileged') {
      if (inline === undefined || inline.toLowerCase() !== 'false') found.push({ reach: 'host', text: '`--privileged`' });
    } else if (flag === '--cap-add') {
      const capability = value().toUpperCase().replace(/^CAP_/, '');
      if (HOST_CAPABILITIES.has(capability)) found.push({ reach: 'host', text: `\`--cap-add ${capability}\`` });
    } else if (flag === '-v' || flag === '--volume') {
      const mount = mountOf(volumeSource(value()));
      if (mount !== null) found.push(mount);
    } else if (flag === '--mount') {
      const source = /(?:^|,)(?:source|src)=([^,]*)/.exec(value());
      const mount = mountOf(source?.[1] ?? null);
      if (mount !== null) found.push(mount);
    }
  }
  return found;
}

/**
 * What a service given `access` holds, from what its job holds (`job`): the job's holdings with the machine
 * (the Docker socket, a host directory above it, `--privileged`), the job's holdings through the workspace (the
 * self-hosted runner's with it: the workspace stays on that machine for later jobs), otherwise only the secrets and
 * the token its `env:` carries.
 */
export function serviceHoldings(access: ServiceAccess, job: Holdings): Holdings {
  if (access.mounts.some((m) => m.reach === 'host')) return job;
  if (access.mounts.some((m) => m.reach === 'workspace')) return job;
  return {
    token: access.token ? job.token : { kind: 'scopes', writes: [] },
    ...splitAsHeld(job, access.secrets),
    inheritsSecrets: false,
    dynamicSecrets: null,
    oidc: false,
    selfHosted: null,
    publishes: null,
    tokenWriter: access.token ? job.tokenWriter : null,
  };
}

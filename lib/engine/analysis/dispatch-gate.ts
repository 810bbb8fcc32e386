import { EXTERNAL_TRIGGERS } from '../expressions/controller.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Step, Workflow } from '../model/workflow.js';
import { asList, get, getText, scalarText } from '../yaml/model.js';
import { everyPathGuarded, stepTrust } from './trust-guards.js';
import { ScanCache } from '../model/scan-cache.js';
import { flatMap } from '../model/arrays.js';

/**
 * Who makes a `repository_dispatch` workflow run. The event can only be sent with a token that has write
 * access to the repository, so by itself it is a collaborator's act (a maintainer's approval when the payload
 * names a pull request, as the `/ok-to-test` pattern does). The gate is bypassable when a workflow of the
 * repository sends the event on behalf of anyone: a slash-command dispatcher that lets any commenter run the
 * command, or a dispatch step in a workflow outsiders trigger with no approval in the way.
 */
export interface DispatchGate {
  /** True when a collaborator (or a maintainer) must act before the workflow runs. */
  holds: boolean;
  /** Who sends the event, in words, for messages. */
  by: string;
}

/**
 * Permissions of `peter-evans/slash-command-dispatch` that let anyone run a command: `none` (any commenter) and `read`
 * (anyone, on a public repository). `triage` is a role a maintainer grants to named people: their command is a
 * collaborator's act, as `write` is (the dispatcher checks it with the API before it dispatches).
 */
export const OPEN_PERMISSIONS = new Set(['none', 'read']);
/** API calls and CLI commands that send a `repository_dispatch` event from a script. */
const SCRIPT_DISPATCH = /createDispatchEvent|repos\/[^\s'"]+\/dispatches\b/g;

const cache = new ScanCache<Workflow, DispatchGate>();

/** The gate in front of a workflow that runs on `repository_dispatch`, from the dispatchers found in the repository. */
export function dispatchGate(workflow: Workflow, repository: RepositoryModel): DispatchGate {
  const cached = cache.get(workflow);
  if (cached !== undefined) return cached;
  const trigger = workflow.triggers.find((t) => t.name === 'repository_dispatch');
  const types = flatMap(asList(get(trigger?.config, 'types')), (n) => {
    const text = scalarText(n);
    return text === null ? [] : [text];
  });
  const accepts = (type: string | null) => type === null || types.length === 0 || types.includes(type);
  let gated: string | null = null;
  let open: string | null = null;
  for (const source of repository.workflows) {
    for (const step of flatMap(source.jobs, (j) => j.steps)) {
      const slug = step.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
      if (slug === 'peter-evans/slash-command-dispatch') {
        if ((getText(step.with, 'dispatch-type') ?? 'repository') !== 'repository') continue;
        const suffix = getText(step.with, 'event-type-suffix') ?? '-command';
        const commands = slashCommands(step);
        const matched = commands.find((c) => accepts(`${c.command}${suffix}`)) ?? (commands.length === 0 && types.length === 0 ? { command: '...', permission: null } : undefined);
        if (matched === undefined) continue;
        const permission = (matched.permission ?? getText(step.with, 'permission') ?? 'write').toLowerCase();
        const text = `a \`/${matched.command}\` comment, which ${source.file.path} dispatches with \`peter-evans/slash-command-dispatch\``;
        if (OPEN_PERMISSIONS.has(permission)) open ??= `${text} for any commenter (\`permission: ${permission}\`)`;
        else gated ??= `${text} only for users with \`${permission}\` permission`;
        continue;
      }
      const type = dispatchedType(step, slug);
      if (type === undefined || !accepts(type)) continue;
      const outsiders = source.triggers.some((t) => EXTERNAL_TRIGGERS.has(t.name));
      const approved = everyPathGuarded(stepTrust(step), (g) => g.kind !== 'bypassable-label' && g.kind !== 'unread-check');
      if (outsiders && !approved) open ??= `${source.file.path}, which sends the event on \`${source.triggers.find((t) => EXTERNAL_TRIGGERS.has(t.name))?.name ?? ''}\` with no maintainer's approval in the way`;
      else gated ??= `${source.file.path}, which sends the event only after a collaborator acts`;
    }
  }
  const gate: DispatchGate =
    open !== null
      ? { holds: false, by: open }
      : { holds: true, by: gated ?? 'a caller holding a token with write access to the repository (no workflow of the repository sends the event)' };
  cache.set(workflow, gate);
  return gate;
}

/** The commands a slash-command-dispatch step handles, with a per-command permission from its JSON `config`. */
function slashCommands(step: Step): { command: string; permission: string | null }[] {
  const commands = getText(step.with, 'commands');
  if (commands !== null) return commands.split(/[\s,]+/).filter((c) => c !== '').map((command) => ({ command, permission: null }));
  const config = getText(step.with, 'config');
  if (config === null) return [];
  try {
    const parsed: unknown = JSON.parse(config);
    if (!Array.isArray(parsed)) return [];
    return flatMap(parsed, (entry: unknown) => {
      if (typeof entry !== 'object' || entry === null) return [];
      const { command, permission } = entry as { command?: unknown; permission?: unknown };
      return typeof command === 'string' ? [{ command, permission: typeof permission === 'string' ? permission : null }] : [];
    });
  } catch {
    return [];
  }
}

/** The event type a step dispatches (null: not known, as in a script); undefined when it dispatches nothing. */
function dispatchedType(step: Step, slug: string | null): string | null | undefined {
  if (slug === 'peter-evans/repository-dispatch') {
    const type = getText(step.with, 'event-type');
    return type === null || type.includes('${{') ? null : type;
  }
  const script = step.run ?? (slug === 'actions/github-script' ? get(step.with, 'script') : undefined);
  if (script?.kind !== 'scalar' || typeof script.value !== 'string') return undefined;
  // `repos/o/r/actions/workflows/x.yml/dispatches` is a `workflow_dispatch`, not this event.
  const sends = [...script.value.matchAll(SCRIPT_DISPATCH)].some((m) => !m[0].includes('/actions/workflows/'));
  return sends ? null : undefined;
}

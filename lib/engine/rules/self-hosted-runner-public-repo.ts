import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { integer, listing, objects, plural, text } from '../settings/json.js';
import { actionsDisabled, visibility } from '../settings/repository.js';

const NAMED = 3;

export default defineSettingsRule({
  meta: {
    id: 'self-hosted-runner-public-repo',
    category: 'CICD-SEC-7',
    title: 'Self-hosted runners attached to a public repository',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'A public repository has self-hosted runners registered, so a pull request from a fork can run attacker code on machines you own, inside your network, possibly persisting between jobs.',
    recommendation:
      'Remove the repository\'s self-hosted runners (Settings → Actions → Runners) and use GitHub-hosted runners for public repositories; if self-hosted hardware is unavoidable, use ephemeral, isolated runners in a runner group restricted to private repositories and to specific workflows.',
  },
  check(snapshot, context) {
    if (visibility(snapshot) !== 'public' || actionsDisabled(snapshot)) return;
    const area = readArea(snapshot, 'runners');
    if (!area.readable) return;
    const runners = objects(area.value, 'runners') ?? [];
    const total = Math.max(integer(area.value, 'total_count') ?? 0, runners.length);
    if (total === 0) return;
    const named = runners.slice(0, NAMED).map((r) => {
      const status = text(r, 'status');
      return `\`${text(r, 'name') ?? `id ${integer(r, 'id') ?? '?'}`}\`${status === undefined ? '' : ` (${status})`}`;
    });
    const rest = total - named.length;
    const list = named.length === 0 ? '' : `: ${rest > 0 ? `${named.join(', ')} and ${rest} more` : listing(named)}`;
    context.report({
      message: `This public repository has ${plural(total, 'self-hosted runner')} registered${list}. A fork pull request can change a workflow to \`runs-on: self-hosted\`; once its run starts, the fork's code executes on those machines, inside your network, and can persist on a non-ephemeral runner to tamper with later jobs.`,
    });
  },
});

import { expandMatrix } from '../analysis/matrix-values.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Severity } from '../types.js';
import { getScalar, scalarText, type YNode } from '../yaml/model.js';

type Pin = { kind: 'digest' } | { kind: 'tag'; tag: string } | { kind: 'latest' } | { kind: 'untagged' };

/** How an image reference is pinned: `[registry[:port]/]name[:tag][@digest]`. */
export function imagePin(reference: string): Pin {
  const image = reference.trim();
  if (/@[a-z0-9]+:[0-9a-f]{32,}/i.test(image)) return { kind: 'digest' };
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  if (colon === -1) return { kind: 'untagged' };
  const tag = name.slice(colon + 1);
  return tag === '' || tag.toLowerCase() === 'latest' ? { kind: 'latest' } : { kind: 'tag', tag };
}

interface Unpinned {
  image: string;
  severity: Severity;
}

/** The unpinned images among the values `text` can take; null when it cannot be resolved. */
function unpinned(job: Job | null, text: string): Unpinned[] | null {
  const values = text.includes('${{') ? expandMatrix(job, text) : [text];
  if (values === null) return resolvePartially(text);
  const result: Unpinned[] = [];
  for (const value of values) {
    // An empty container value (`container: ''` in one matrix leg) means "no container".
    if (value.trim() === '') continue;
    const pin = imagePin(value);
    if (pin.kind === 'digest') continue;
    result.push({ image: value.trim(), severity: pin.kind === 'tag' ? 'MEDIUM' : 'HIGH' });
  }
  return result;
}

/**
 * An image with an expression other than a matrix value: judged only when the expression sits in the
 * registry or repository part and a literal tag or digest follows (`${{ env.REGISTRY }}/app:latest`).
 */
function resolvePartially(text: string): Unpinned[] | null {
  const lastExpression = text.lastIndexOf('}}');
  const tail = text.slice(lastExpression + 2);
  if (lastExpression === -1 || !tail.includes('/') || /\$\{\{/.test(tail)) return null;
  const pin = imagePin(tail);
  if (pin.kind === 'digest') return [];
  return [{ image: text.trim(), severity: pin.kind === 'tag' ? 'MEDIUM' : 'HIGH' }];
}

export default defineWorkflowRule({
  meta: {
    id: 'unpinned-image',
    category: 'CICD-SEC-3',
    title: 'Container image not pinned by digest',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A job container, service container or `docker://` step image is referenced by a tag instead of an `@sha256:` digest, so a re-pushed tag silently changes the code that runs. HIGH when the tag is `latest` or missing.',
    recommendation:
      'Reference the image by digest and keep the tag for readers (`image: node:22-bookworm@sha256:<digest>`); let Dependabot (`package-ecosystem: docker`) or Renovate update the digest.',
  },
  create: (context) => ({
    job(job) {
      const container = job.container;
      if (container?.kind === 'scalar') check(context, job, container, 'job container');
      else check(context, job, getScalar(container, 'image'), 'job container');
      for (const pair of job.services?.pairs ?? []) {
        const service = pair.value;
        const image = service.kind === 'scalar' ? service : getScalar(service, 'image');
        check(context, job, image, `service \`${scalarText(pair.key) ?? ''}\``);
      }
    },
    step(step) {
      if (step.usesRef?.kind !== 'docker' || step.uses === undefined) return;
      check(context, step.job, step.uses, '`docker://` step', step.usesRef.image);
    },
  }),
});

function check(context: WorkflowRuleContext, job: Job | null, node: YNode | undefined, where: string, text?: string): void {
  if (node?.kind !== 'scalar' || (text === undefined && typeof node.value !== 'string')) return;
  const value = text ?? scalarText(node);
  if (value === null || value.trim() === '') return;
  const found = unpinned(job, value);
  if (found === null || found.length === 0) return;
  const severity: Severity = found.some((f) => f.severity === 'HIGH') ? 'HIGH' : 'MEDIUM';
  const images = [...new Set(found.map((f) => f.image))];
  const shown = images.slice(0, 3).map((i) => `\`${i}\``).join(', ') + (images.length > 3 ? ` and ${images.length - 3} more` : '');
  const why = severity === 'HIGH' ? 'has no tag or uses `latest`, so it follows whatever is pushed next' : 'is pinned by a tag, which its publisher can re-push';
  context.report({
    node,
    severity,
    message: `The ${where} image ${shown} ${why}; it is not pinned by \`@sha256:\` digest.`,
  });
}

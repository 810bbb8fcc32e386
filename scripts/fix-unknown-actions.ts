/**
 * Which actions of the shared corpus the permissions table (lib/engine/data/permissions.ts) does not know,
 * most used first: the list to extend the table from. `npm run fix:unknown-actions [-- --top N]`.
 * Needs the shared corpus beside the project (../shared/corpus/real); without it, says so and exits 0.
 * Also reports how many jobs the least-privilege fix can compute safely (no unknown action, `gh api` ...).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectRepositoryFiles } from '../lib/codehost/checkout.js';
import { jobNeeds } from '../lib/engine/fixes/permissions.js';
import { RepositoryModel } from '../lib/engine/model/repository.js';
import { buildAction, buildWorkflow, type Action, type Workflow } from '../lib/engine/model/workflow.js';
import { classifyPath } from '../lib/engine/scan.js';
import { parseYaml } from '../lib/engine/yaml/parse.js';
import { SourceFile } from '../lib/engine/yaml/source.js';

const corpus = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
if (!existsSync(corpus)) {
  console.log('The shared corpus (../shared/corpus/real) is not here: nothing to report.');
  process.exit(0);
}
const topIndex = process.argv.indexOf('--top');
const top = topIndex === -1 ? 50 : Number(process.argv[topIndex + 1] ?? 50);

const unknown = new Map<string, { uses: number; repos: Set<string> }>();
let jobs = 0;
let computable = 0;
const repos = (await readdir(corpus, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
for (const repo of repos) {
  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  for (const f of await collectRepositoryFiles(join(corpus, repo))) {
    const kind = classifyPath(f.path);
    const parsed = parseYaml(f.text);
    if (!parsed.ok || parsed.root.kind !== 'map') continue;
    if (kind === 'workflow') workflows.push(buildWorkflow(new SourceFile(f.path, f.text), parsed.root));
    else if (kind === 'action') actions.push(buildAction(new SourceFile(f.path, f.text), parsed.root));
  }
  const model = new RepositoryModel(workflows, actions, []);
  for (const workflow of workflows) {
    for (const job of workflow.jobs) {
      jobs++;
      const needs = jobNeeds(job, model);
      if (needs.unknown.length === 0) computable++;
      for (const name of needs.unknown) {
        const entry = unknown.get(name) ?? { uses: 0, repos: new Set<string>() };
        entry.uses++;
        entry.repos.add(repo);
        unknown.set(name, entry);
      }
    }
  }
}
const sorted = [...unknown].sort((a, b) => b[1].repos.size - a[1].repos.size || b[1].uses - a[1].uses || (a[0] < b[0] ? -1 : 1));
console.log(`${repos.length} repositories, ${jobs} jobs: ${computable} (${((100 * computable) / Math.max(jobs, 1)).toFixed(1)}%) get a safe least-privilege block.`);
console.log(`${unknown.size} unknowns; the ${Math.min(top, sorted.length)} most common (repositories, uses):`);
for (const [name, { uses, repos: inRepos }] of sorted.slice(0, top)) console.log(`${String(inRepos.size).padStart(4)} ${String(uses).padStart(5)}  ${name}`);

/**
 * Where the engine's time goes, from a V8 .cpuprofile of bench/profile-engine.ts: each sample is charged to
 * parsing (the fast path or the full `yaml` library), to the rule whose hook was running (shared analyses
 * and caches are charged to the first rule that needs them), to the rest of the scan, or to the garbage
 * collector. `npx tsx bench/profile-breakdown.ts bench/results/<file>.cpuprofile`
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

function bucket(id: number): string {
  const frames: ProfileNode['callFrame'][] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)?.callFrame ?? { functionName: '', url: '' });
  frames.reverse();
  const leaf = frames[frames.length - 1];
  if (leaf?.functionName === '(garbage collector)') return 'garbage collector';
  if (!frames.some((f) => f.functionName === 'scanRepository')) return 'outside the scan (startup, idle)';
  if (frames.some((f) => f.functionName === 'parseYamlFull')) return 'parse: full yaml library (fallback)';
  if (frames.some((f) => f.functionName === 'parseYamlFast')) return 'parse: fast path';
  if (frames.some((f) => f.functionName === 'parseFile')) return 'parse: other (size checks, source map)';
  // Samples whose leaf is the walk itself are rule time the profiler could not place: their count follows
  // the hooks' own cost (workflow hooks, few and heavy, get the most per call), and calling ~60 hooks a node
  // with empty bodies costs ~10 ms a corpus round, not the ~5% these samples add up to.
  if (leaf?.functionName === 'runWorkflowRules') return 'rules: hook time the profiler could not place';
  const rule = frames.find((f) => /\/lib\/engine\/rules\/[^/]+\.ts$/.test(f.url) && !f.url.endsWith('/index.ts'));
  if (rule !== undefined) return `rule ${rule.url.replace(/^.*\/rules\//, '').replace(/\.ts$/, '')}`;
  return 'scan: model, suppressions, fingerprints, sort';
}

const totals = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  if (time === 0) continue;
  total += time;
  const key = bucket(node.id);
  totals.set(key, (totals.get(key) ?? 0) + time);
}
const rows = [...totals].sort((a, b) => b[1] - a[1]);
console.log(`total ${(total / 1000).toFixed(0)} ms`);
for (const [key, time] of rows.slice(0, Number(process.argv[3] ?? 25))) console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(6)} ms  ${key}`);

/** Self time per function (and per file) of a V8 .cpuprofile, heaviest first. */
import { readFileSync } from 'node:fs';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
const profile = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  total += time;
  const file = node.callFrame.url.replace(/^.*\/(node_modules\/|lib\/)/, '$1');
  const key = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  byFile.set(file, (byFile.get(file) ?? 0) + time);
}
const show = (map: Map<string, number>, n: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`).join('\n');
console.log(`total ${(total / 1000).toFixed(0)} ms\n\nby file:\n${show(byFile, 25)}\n\nby function:\n${show(byFunction, 40)}`);

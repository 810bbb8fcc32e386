import { describe, expect, it } from 'vitest';
import { positions, recordsWith, yaml } from '../../../support/engine.js';

const RULE = 'unpinnable-action';
const SHA = 'b4ffde65f46336ab88eb53be808477a3936bae11';
const DIGEST = `sha256:${'a1'.repeat(32)}`;

const docker = (image: string) => yaml`
  name: tool
  runs:
    using: docker
    image: ${image}
`;
const composite = (...uses: string[]) => yaml`
  name: setup
  runs:
    using: composite
    steps:
${uses.map((u) => `      - uses: ${u}`).join('\n')}
`;

describe(RULE, () => {
  it('reports published docker actions with a tagged image and composites with mutable uses, at runs.using', () => {
    const records = recordsWith(RULE, [
      { path: 'action.yml', text: docker('docker://ghcr.io/org/tool:v2.4.4') },
      { path: 'setup-uv/action.yml', text: composite(`actions/checkout@${SHA}`, 'astral-sh/setup-uv@v6', 'docker://alpine:3') },
    ]);
    expect(records.map((r) => `${r.finding.file} ${positions([r.finding]).join('')}`)).toEqual(['action.yml 3:3 LOW', 'setup-uv/action.yml 3:3 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.description).toContain('`docker://ghcr.io/org/tool:v2.4.4`');
    expect(records[1]?.finding.description).toContain('`astral-sh/setup-uv@v6`, `docker://alpine:3`');
  });

  it('does not report the exact tag of an immutable release (setup-uv from v8.0.0), and reports its floating or older tags', () => {
    expect(recordsWith(RULE, [{ path: 'action.yml', text: composite('astral-sh/setup-uv@v8.2.0', `actions/checkout@${SHA}`) }])).toEqual([]);
    for (const ref of ['v8', 'v7.1.0']) {
      const found = recordsWith(RULE, [{ path: 'action.yml', text: composite(`astral-sh/setup-uv@${ref}`) }]);
      expect(found.map((r) => r.finding.description), ref).toEqual([expect.stringContaining(`\`astral-sh/setup-uv@${ref}\``)]);
    }
  });

  it('does not report pinned actions, Dockerfile builds, local helpers under .github, or other runtimes', () => {
    expect(recordsWith(RULE, [
      { path: 'action.yml', text: docker(`docker://ghcr.io/org/tool:v2@${DIGEST}`) },
      { path: 'build/action.yml', text: docker('Dockerfile') },
      { path: 'pinned/action.yml', text: composite(`actions/checkout@${SHA}`, './local', `docker://alpine@${DIGEST}`) },
      { path: '.github/actions/setup/action.yml', text: composite('actions/setup-node@v4') },
      { path: 'node/action.yml', text: yaml`
        name: node
        runs:
          using: node20
          main: index.js
      ` },
    ])).toEqual([]);
  });
});

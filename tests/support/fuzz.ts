import fc from 'fast-check';
import { stringify, type ToStringOptions } from 'yaml';
import type { RepositoryFile } from '../../lib/engine/types.js';

/**
 * fast-check arbitraries for engine fuzzing: workflow-shaped documents (triggers, jobs, steps with
 * `uses`/`run`/`with`/`env`/`if`, `${{ }}` expressions over real and random contexts), odd shapes where
 * a well-formed workflow has a mapping or a list, and byte-level mutations of any text.
 */

/** Any JSON-ish value: what a field holds when the author got its shape wrong (`steps: 5`, `with: [1]`). */
const odd: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(5, 0, -1, 1.5, true, false, null, '', 'x', [], {}, [1], ['a', 'b'], { a: 1 }, [null], [[]], { '': null }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** `normal` most of the time, an odd shape sometimes. */
function orOdd<T>(normal: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: normal }, { weight: 1, arbitrary: odd });
}

const identifier = fc.oneof(
  fc.constantFrom('a', 'b', 'o', 'v', 'name', 'title', 'body', 'ref', 'sha', 'tag', 'os', 'x_y', 'A-B', 'TITLE'),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/),
);

const CONTEXTS = [
  'github.event.issue.title',
  'github.event.issue.body',
  'github.event.pull_request.title',
  'github.event.pull_request.body',
  'github.event.pull_request.head.ref',
  'github.event.pull_request.head.sha',
  'github.event.pull_request.head.label',
  'github.event.pull_request.number',
  'github.event.pull_request.labels.*.name',
  'github.event.comment.body',
  'github.event.review.body',
  'github.event.head_commit.message',
  'github.event.head_commit.author.email',
  'github.event.commits[0].message',
  'github.event.workflow_run.head_branch',
  'github.event.workflow_run.head_sha',
  'github.event.workflow_run.id',
  'github.event.client_payload.cmd',
  'github.event.inputs.tag',
  'github.head_ref',
  'github.base_ref',
  'github.ref',
  'github.ref_name',
  'github.sha',
  'github.actor',
  'github.triggering_actor',
  'github.repository',
  'github.workspace',
  'github.token',
  'github.event_name',
  "github['event']['issue']['title']",
  'github.event',
  'github',
  'secrets.GITHUB_TOKEN',
  'secrets.NPM_TOKEN',
  'secrets.PYPI_API_TOKEN',
  'secrets.RELEASE_PAT',
  'secrets.DEPLOY_KEY',
  'secrets',
  'env.A',
  'env.TITLE',
  'env.B',
  'vars.X',
  'steps.s0.outputs.o',
  'steps.s1.outputs.v',
  'steps.meta.outputs.tags',
  'steps.changed.outputs.all_changed_files',
  'needs.j0.outputs.o',
  'needs.j1.outputs.v',
  'inputs.i',
  'inputs.tag',
  'matrix.os',
  'matrix.v',
  'matrix',
  'runner.temp',
  'runner.os',
  'job.status',
  'strategy.job-index',
];

const stringLiteral = fc.oneof(
  fc.constantFrom("'refs/heads/main'", "'dependabot[bot]'", "'{0}-{1}'", "''", "'it''s'", "'a b c'", "'[\"push\"]'", "'{}'", "'safe-to-test'"),
  fc.string({ maxLength: 8 }).map((s) => `'${s.replaceAll("'", "''")}'`),
);

const leaf = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CONTEXTS) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('github', 'env', 'steps', 'needs', 'inputs', 'matrix', 'secrets', 'vars', 'foo'), fc.array(identifier, { maxLength: 4 })).map(([root, path]) => [root, ...path].join('.')) },
  { weight: 2, arbitrary: stringLiteral },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '0', '1', '-1.5', '0x1F', '1e3', 'NaN', 'Infinity') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

const FUNCTIONS = ['format', 'join', 'toJSON', 'fromJSON', 'contains', 'startsWith', 'endsWith', 'hashFiles', 'success', 'always', 'failure', 'cancelled', 'unknownFn'];

/** The text between `${{` and `}}`: real contexts and functions, random ones, and syntax errors. */
export const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), fc.constantFrom('==', '!=', '&&', '||', '<', '<=', '>', '>=', '=', '|', '&'), tie('expr')).map(([a, op, b]) => `${a} ${op} ${b}`),
    tie('expr').map((e) => `!${e}`),
    tie('expr').map((e) => `(${e})`),
    fc.tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie('expr'), { maxLength: 4 })).map(([name, args]) => `${name}(${args.join(', ')})`),
    fc
      .tuple(tie('expr'), fc.oneof(identifier.map((i) => `.${i}`), fc.constant('.*'), fc.nat(3).map((n) => `[${n}]`), stringLiteral.map((s) => `[${s}]`)))
      .map(([e, access]) => `${e}${access}`),
  ),
})).expr;

const embeddedExpression = fc.oneof(
  { weight: 8, arbitrary: expression.map((e) => `\${{ ${e} }}`) },
  { weight: 1, arbitrary: fc.constantFrom('${{', '${{ }}', '}}', '${{ github.head_ref', '${ { x } }', '$${{ x }}', '${{ ${{ x }} }}') },
);

const SHELL = [
  'echo hello',
  'echo "$TITLE"',
  'echo "name=$HEAD_REF" >> "$GITHUB_OUTPUT"',
  'echo "X=$Y" >> $GITHUB_ENV',
  'echo "$PWD/bin" >> "$GITHUB_PATH"',
  'cat pr.txt | tee -a "$GITHUB_ENV"',
  'echo "::set-output name=o::v"',
  'echo "::add-path::/tmp"',
  'curl -fsSL https://example.com/install.sh | bash',
  'wget -qO- https://x.dev/i | sudo sh',
  'bash <(curl -s https://x.dev/s)',
  'sh -c "$(curl -fsSL https://x/y)"',
  'curl -LO https://example.com/tool.tar.gz && tar xzf tool.tar.gz',
  'echo abc | base64 -d | bash',
  'npm install',
  'npm ci',
  'npm i -g typescript',
  'npx cowsay hi',
  'pip install requests',
  'go install golang.org/x/tools/gopls@latest',
  'cargo install ripgrep',
  'gem install rails',
  'npm publish',
  'npm publish --provenance',
  'twine upload dist/*',
  'gh release create v1',
  'gh pr checkout ${{ github.event.issue.number }}',
  'git fetch origin refs/pull/1/head && git checkout FETCH_HEAD',
  'gh run download 1',
  'make build',
  './scripts/build.sh',
  'env',
  'printenv',
  'set -x',
  'docker push ghcr.io/o/r',
  'cat <<EOF\n$X\nEOF',
  "node -e 'console.log(process.env.A)'",
  'Write-Host $env:TITLE',
  'if [ "$A" = "b" ]; then exit 1; fi',
  'echo \\\n  continued',
];

/** A `run:` script: shell lines, expressions, and random text. */
export const script: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SHELL) }, { weight: 3, arbitrary: embeddedExpression }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), { minLength: 1, maxLength: 6 })
  .chain((parts) => fc.array(fc.constantFrom(' ', '\n', ' && ', ' | ', '; '), { minLength: parts.length, maxLength: parts.length }).map((seps) => parts.map((p, i) => p + (seps[i] ?? '')).join('')));

/** A scalar that may hold expressions. */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('x', 'ubuntu-latest', 'main', 'true', 'false', '1', 'v1', '.', 'dist/', '**/*', 'production') },
  { weight: 2, arbitrary: embeddedExpression },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), embeddedExpression, fc.string({ maxLength: 6 })).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

const condition = fc.oneof(
  expression,
  embeddedExpression,
  fc.tuple(embeddedExpression, fc.constantFrom(' && true', '\n', ' ', ' || x')).map(([e, s]) => e + s),
  fc.constantFrom("github.actor == 'dependabot[bot]'", "contains('refs/heads/main refs/heads/dev', github.ref)", 'always()', "github.event_name == 'push' && 'a' || 'b'"),
);

const SHA = 'a'.repeat(40);
const uses = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      'actions/checkout@v4',
      `actions/checkout@${SHA}`,
      'actions/download-artifact@v4',
      'actions/download-artifact@v4.1.2',
      'dawidd6/action-download-artifact@v6',
      'actions/upload-artifact@v3',
      'actions/github-script@v7',
      'actions/cache@v4',
      'actions/setup-node@v4',
      'actions/setup-python@v5',
      'actions/setup-go@v5',
      'actions/create-github-app-token@v1',
      'actions/attest-build-provenance@v2',
      'actions/labeler@v5',
      'tj-actions/changed-files@v44',
      'tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67',
      'reviewdog/action-setup@v1',
      'actons/checkout@v4',
      'pypa/gh-action-pypi-publish@release/v1',
      'docker/build-push-action@v6',
      'docker://alpine',
      'docker://alpine:latest',
      `docker://alpine@sha256:${'b'.repeat(64)}`,
      './.github/actions/a',
      './.github/actions/b/',
      './',
      './missing',
      '../escape',
      'owner//repo@v1',
      'owner/repo/.github/workflows/reusable.yml@main',
      './.github/workflows/reusable.yml',
      'owner/repo',
      '@v1',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const WITH_KEYS = ['ref', 'repository', 'path', 'persist-credentials', 'token', 'script', 'run-id', 'name', 'github-token', 'cache', 'key', 'node-version', 'python-version', 'go-version', 'version', 'args', 'skip-token-revoke', 'owner', 'repositories', 'include-hidden-files', 'subject-path'];
const ENV_KEYS = ['A', 'B', 'TITLE', 'HEAD_REF', 'GH_TOKEN', 'GITHUB_TOKEN', 'NODE_AUTH_TOKEN', 'NPM_TOKEN', 'API_KEY', 'PASSWORD', 'ACTIONS_ALLOW_UNSECURE_COMMANDS', 'ACTIONS_STEP_DEBUG', 'ACTIONS_RUNNER_DEBUG', 'AWS_ACCESS_KEY_ID'];
const ENV_VALUES = fc.oneof(text, fc.constantFrom('true', 'hunter2-prod', 'AKIAIOSFODNN7EXAMPLE', 'ghp_0123456789abcdefghij0123456789abcdef', '${{ secrets.X }}', '${{ toJSON(secrets) }}'));

const mapping = (keys: readonly string[], value: fc.Arbitrary<unknown>) =>
  orOdd(fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: identifier }), value, { maxKeys: 4 }));

const step = fc.record(
  {
    id: orOdd(fc.constantFrom('s0', 's1', 'S0', 'meta', 'changed', 'build')),
    name: orOdd(text),
    uses: orOdd(uses),
    run: orOdd(script),
    with: mapping(WITH_KEYS, orOdd(fc.oneof(text, script))),
    env: mapping(ENV_KEYS, orOdd(ENV_VALUES)),
    if: orOdd(condition),
    shell: fc.constantFrom('bash', 'pwsh', 'python', 'sh -e {0}'),
    'continue-on-error': orOdd(fc.boolean()),
    'working-directory': text,
    'timeout-minutes': orOdd(fc.nat(100)),
  },
  { requiredKeys: [] },
);

const steps = orOdd(fc.array(orOdd(step), { maxLength: 5 }));

const PERMISSION_SCOPES = ['contents', 'id-token', 'packages', 'actions', 'pull-requests', 'issues', 'security-events', 'attestations'];
const permissions = orOdd(
  fc.oneof(fc.constantFrom('read-all', 'write-all', '', 'none'), fc.dictionary(fc.constantFrom(...PERMISSION_SCOPES), fc.constantFrom('read', 'write', 'none'), { maxKeys: 4 })),
);

const JOB_IDS = ['j0', 'j1', 'build', 'publish', 'J0'];
const job = fc.record(
  {
    'runs-on': orOdd(fc.oneof(text, fc.constantFrom(['self-hosted', 'linux'], { group: 'g', labels: ['self-hosted'] }, '${{ matrix.os }}'))),
    permissions,
    needs: orOdd(fc.oneof(fc.constantFrom(...JOB_IDS), fc.array(fc.constantFrom(...JOB_IDS), { maxLength: 3 }))),
    outputs: mapping(['o', 'v', 'tag'], orOdd(text)),
    strategy: orOdd(fc.record({ matrix: orOdd(fc.record({ os: orOdd(fc.array(text, { maxLength: 3 })), v: orOdd(fc.array(text, { maxLength: 3 })), include: orOdd(fc.array(mapping(['os', 'v'], text), { maxLength: 2 })) }, { requiredKeys: [] })) }, { requiredKeys: [] })),
    steps,
    if: orOdd(condition),
    env: mapping(ENV_KEYS, orOdd(ENV_VALUES)),
    'timeout-minutes': orOdd(fc.nat(400)),
    environment: orOdd(fc.oneof(text, fc.record({ name: text, url: text }))),
    concurrency: orOdd(text),
    container: orOdd(fc.oneof(fc.constantFrom('node:20', 'node', 'node:latest', `node@sha256:${'c'.repeat(64)}`), fc.record({ image: text, credentials: mapping(['username', 'password'], text) }, { requiredKeys: [] }))),
    services: mapping(['redis', 'db'], orOdd(fc.record({ image: text }))),
    uses: orOdd(uses),
    with: mapping(['i', 'tag'], orOdd(text)),
    secrets: orOdd(fc.oneof(fc.constant('inherit'), mapping(['token'], text))),
    'continue-on-error': orOdd(fc.boolean()),
  },
  { requiredKeys: [] },
);

const EVENTS = ['push', 'pull_request', 'pull_request_target', 'workflow_run', 'issue_comment', 'issues', 'workflow_dispatch', 'workflow_call', 'repository_dispatch', 'release', 'schedule', 'discussion', 'fork', 'watch', 'merge_group', 'pull_request_review_comment'];
const event = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...EVENTS) }, { weight: 1, arbitrary: identifier });
const triggers = orOdd(
  fc.oneof(
    event,
    fc.array(event, { maxLength: 4 }),
    fc.dictionary(
      event,
      orOdd(
        fc.record(
          {
            types: orOdd(fc.array(fc.constantFrom('opened', 'completed', 'created', 'labeled', 'published'), { maxLength: 2 })),
            branches: orOdd(fc.array(text, { maxLength: 2 })),
            tags: orOdd(fc.array(fc.constantFrom('v*', '*'), { maxLength: 2 })),
            workflows: orOdd(fc.array(fc.constantFrom('ci', 'CI', 'build'), { maxLength: 2 })),
            inputs: mapping(['i', 'tag'], orOdd(fc.record({ type: fc.constantFrom('string', 'choice', 'boolean', 'number'), default: text }, { requiredKeys: [] }))),
          },
          { requiredKeys: [] },
        ),
      ),
      { maxKeys: 4 },
    ),
  ),
);

export const workflow = fc.record(
  {
    name: orOdd(text),
    on: triggers,
    permissions,
    env: mapping(ENV_KEYS, orOdd(ENV_VALUES)),
    concurrency: orOdd(text),
    jobs: orOdd(fc.dictionary(fc.oneof(fc.constantFrom(...JOB_IDS), identifier), orOdd(job), { maxKeys: 4 })),
  },
  { requiredKeys: ['on', 'jobs'] },
);

const action = fc.record(
  {
    name: text,
    inputs: mapping(['i', 'tag', 'message'], orOdd(fc.record({ description: text, default: text, required: fc.boolean() }, { requiredKeys: [] }))),
    outputs: mapping(['o', 'v'], orOdd(fc.record({ value: text }))),
    runs: orOdd(fc.record({ using: fc.constantFrom('composite', 'node20', 'docker'), steps, image: text }, { requiredKeys: ['using'] })),
  },
  { requiredKeys: ['runs'] },
);

const dependabot = fc.record(
  {
    version: orOdd(fc.constant(2)),
    registries: mapping(['npm'], orOdd(fc.record({ type: fc.constant('npm-registry'), url: text, token: text }))),
    updates: orOdd(
      fc.array(
        orOdd(
          fc.record(
            {
              'package-ecosystem': orOdd(fc.constantFrom('npm', 'pip', 'github-actions', 'docker')),
              directory: text,
              schedule: orOdd(fc.record({ interval: fc.constantFrom('daily', 'weekly') })),
              cooldown: orOdd(fc.record({ 'default-days': fc.nat(30) }, { requiredKeys: [] })),
              'insecure-external-code-execution': orOdd(fc.constantFrom('allow', 'deny')),
            },
            { requiredKeys: [] },
          ),
        ),
        { maxLength: 3 },
      ),
    ),
  },
  { requiredKeys: [] },
);

/** How a document is written: block or flow collections, plain or quoted strings, indentation. */
const style: fc.Arbitrary<ToStringOptions> = fc.record({
  collectionStyle: fc.constantFrom('any', 'any', 'block', 'flow'),
  defaultStringType: fc.constantFrom('PLAIN', 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
});

function yamlText(value: unknown, options: fc.Arbitrary<ToStringOptions>): fc.Arbitrary<string> {
  return options.map((o) => stringify(value, { lineWidth: 0, ...o }));
}

/** A generated workflow as YAML text, in one of several styles. */
export const workflowText: fc.Arbitrary<string> = fc.tuple(workflow, style).map(([w, s]) => stringify(w, { lineWidth: 0, ...s }));

/** A repository: workflows, local composite actions that they may call, a root action, Dependabot. */
export const repository: fc.Arbitrary<RepositoryFile[]> = fc
  .record(
    {
      workflows: fc.array(workflowText, { minLength: 1, maxLength: 2 }),
      actions: fc.array(action.chain((a) => yamlText(a, style)), { maxLength: 2 }),
      root: action.chain((a) => yamlText(a, style)),
      dependabot: dependabot.chain((d) => yamlText(d, style)),
      reusable: workflowText,
    },
    { requiredKeys: ['workflows'] },
  )
  .map(({ workflows, actions, root, dependabot: config, reusable }) => {
    const files: RepositoryFile[] = workflows.map((text, i) => ({ path: `.github/workflows/w${i}.${i % 2 === 0 ? 'yml' : 'yaml'}`, text }));
    actions?.forEach((text, i) => files.push({ path: `.github/actions/${'ab'[i]}/action.yml`, text }));
    if (root !== undefined) files.push({ path: 'action.yaml', text: root });
    if (config !== undefined) files.push({ path: '.github/dependabot.yml', text: config });
    if (reusable !== undefined) files.push({ path: '.github/workflows/reusable.yml', text: reusable });
    return files;
  });

/** One edit of a text: what a careless paste, a bad merge or a hostile author does to a file. */
export type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate-line'; line: number }
  | { kind: 'delete-line'; line: number }
  | { kind: 'swap-lines'; line: number; other: number };

const INSERTIONS = fc.oneof(
  fc.constantFrom(' ', '  ', '\n', '\t', ':', ': ', '- ', '#', '"', "'", '[', ']', '{', '}', ',', '|', '>', '&a ', '*a', '? ', '!!str ', '---\n', '${{ ', '}}', '${{ github.head_ref }}', '\0', '\r', '\r\n', '\ufeff', '\u2028', '\ud800', '\udc00', '\ufffd', 'é', '😀'),
  fc.string({ maxLength: 8, unit: 'binary' }),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: INSERTIONS }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate-line' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('delete-line' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swap-lines' as const), line: fc.nat(), other: fc.nat() }),
);

export function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const lines = out.split('\n');
    const at = (n: number, length: number) => (length === 0 ? 0 : n % length);
    switch (m.kind) {
      case 'insert': {
        const pos = at(m.at, out.length + 1);
        out = out.slice(0, pos) + m.text + out.slice(pos);
        break;
      }
      case 'delete': {
        const pos = at(m.at, out.length);
        out = out.slice(0, pos) + out.slice(pos + m.length);
        break;
      }
      case 'duplicate-line': {
        const i = at(m.line, lines.length);
        lines.splice(i, 0, lines[i] ?? '');
        out = lines.join('\n');
        break;
      }
      case 'delete-line': {
        lines.splice(at(m.line, lines.length), 1);
        out = lines.join('\n');
        break;
      }
      case 'swap-lines': {
        const i = at(m.line, lines.length);
        const j = at(m.other, lines.length);
        [lines[i], lines[j]] = [lines[j] ?? '', lines[i] ?? ''];
        out = lines.join('\n');
        break;
      }
    }
  }
  return out;
}

/**
 * Text as Node reads a file of arbitrary bytes: random bytes (invalid UTF-8 included) spliced into the
 * UTF-8 encoding of `text`, decoded with replacement characters.
 */
export const invalidUtf8 = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 6 }).map((splices) => {
    let bytes = new TextEncoder().encode(text);
    for (const [at, inserted] of splices) {
      const pos = at % (bytes.length + 1);
      const next = new Uint8Array(bytes.length + inserted.length);
      next.set(bytes.subarray(0, pos), 0);
      next.set(inserted, pos);
      next.set(bytes.subarray(pos), pos + inserted.length);
      bytes = next;
    }
    return new TextDecoder('utf-8').decode(bytes);
  });

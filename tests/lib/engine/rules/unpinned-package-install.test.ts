import { describe, expect, it } from 'vitest';
import { isNpmRange, unpinnedInstall } from '../../../../lib/engine/rules/unpinned-package-install.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unpinned-package-install';

function packages(command: string): string[] | null {
  return unpinnedInstall(command)?.packages ?? null;
}

describe(RULE, () => {
  it('finds unpinned global npm installs and npx downloads', () => {
    expect(packages('npm install -g markdownlint-cli')).toEqual(['markdownlint-cli']);
    expect(packages('sudo npm i --global @scope/tool@latest other@1.2.3')).toEqual(['@scope/tool@latest']);
    expect(packages('pnpm add -g pnpm-tool')).toEqual(['pnpm-tool']);
    expect(packages('yarn global add serve')).toEqual(['serve']);
    expect(packages('npx --yes create-thing --flag')).toEqual(['create-thing']);
    expect(packages('npx -p renovate renovate-config-validator')).toEqual(['renovate']);
    expect(packages('npx prettier --check .')).toBeNull();
    expect(packages('npx -y cowsay@1.6.0 hi')).toBeNull();
    expect(packages('npm install')).toBeNull();
    expect(packages('npm ci')).toBeNull();
    expect(packages('npm install -g npm@latest')).toBeNull();
    expect(packages('npm install -g ./dist/tool.tgz')).toBeNull();
  });

  it('finds project installs of named packages too (npm i pkg, npm add pkg@^1, yarn add, bun add)', () => {
    expect(packages('npm i left-pad')).toEqual(['left-pad']);
    expect(packages('npm add pkg@^1')).toEqual(['pkg@^1']);
    expect(packages('npm install --save-dev typescript@~5.4 eslint@9.1.0')).toEqual(['typescript@~5.4']);
    expect(packages('pnpm add -D vitest@latest')).toEqual(['vitest@latest']);
    expect(packages('yarn add lodash@4.x')).toEqual(['lodash@4.x']);
    expect(packages('bun add zod')).toEqual(['zod']);
    expect(unpinnedInstall('npm i left-pad')?.tool).toBe('npm i');
    // The lockfile install, exact versions, local paths and unknown values are fine.
    expect(packages('npm install --omit=dev')).toBeNull();
    expect(packages('bun install --frozen-lockfile')).toBeNull();
    expect(packages('pnpm install --filter with-angular')).toBeNull();
    expect(unpinnedInstall('npm i -fg corepack')?.tool).toBe('npm i -g');
    expect(packages('npm i pkg@1.2.3 @scope/x@2.0.0-rc.1')).toBeNull();
    expect(packages('npm i ./packages/core "$PKG"')).toBeNull();
  });

  it('counts caret, tilde, partial and comparison ranges as unpinned', () => {
    for (const range of ['^1', '~1.2', '1.x', '1', '1.2', '>=1.0.0', '1 || 2', '*', 'next']) expect(isNpmRange(range), range).toBe(true);
    for (const exact of ['1.2.3', 'v1.2.3', '1.2.3-rc.1']) expect(isNpmRange(exact), exact).toBe(false);
    expect(packages('pip install "ruff~=0.6"')).toEqual(['ruff~=0.6']);
  });

  it('finds unpinned pip, pipx and uv installs', () => {
    expect(packages('pip install requests')).toEqual(['requests']);
    expect(packages('python3 -m pip install --upgrade pip build "twine>=5"')).toEqual(['build', 'twine>=5']);
    expect(packages('uv pip install --system ruff')).toEqual(['ruff']);
    expect(packages('pipx install poetry')).toEqual(['poetry']);
    expect(packages('uvx nox -s tests')).toEqual(['nox']);
    expect(packages('uv tool install --from tox==4.20 tox')).toBeNull();
    expect(packages('uvx ruff@0.6.9 check')).toBeNull();
    expect(packages('uvx python -V')).toBeNull();
    expect(packages('pip install requests==2.32.3')).toBeNull();
    expect(packages('pip install -r requirements.txt')).toBeNull();
    expect(packages('pip install -e ".[dev]"')).toBeNull();
    expect(packages('pip install . dist/*.whl')).toBeNull();
    expect(packages('pip install --require-hashes -r req.txt')).toBeNull();
    expect(packages('pip install -c constraints.txt numpy')).toBeNull();
    expect(packages('pip install --no-index --find-links dist mypkg')).toBeNull();
    expect(packages('pip install --upgrade pip setuptools wheel')).toBeNull();
    expect(packages('pip install "$PACKAGE"')).toBeNull();
    expect(packages('pip install ${{ matrix.package }}')).toBeNull();
    expect(packages('./uv pip install anyio')).toBeNull();
  });

  it('finds go install @latest, cargo install without --locked or a version, gem install without -v', () => {
    expect(packages('go install golang.org/x/tools/cmd/goimports@latest')).toEqual(['golang.org/x/tools/cmd/goimports@latest']);
    expect(packages('go install example.com/tool@master')).toEqual(['example.com/tool@master']);
    expect(packages('go install example.com/tool@v1.2.3')).toBeNull();
    expect(packages('go install ./cmd/...')).toBeNull();
    expect(packages('cargo install cargo-deny')).toEqual(['cargo-deny']);
    expect(packages('cargo install cargo-deny --locked')).toBeNull();
    expect(packages('cargo install cargo-deny --version 0.16.1')).toBeNull();
    expect(packages('cargo install cargo-deny@0.16.1')).toBeNull();
    expect(packages('cargo install --path .')).toBeNull();
    expect(packages('gem install bundler')).toEqual(['bundler']);
    expect(packages('gem install bundler -v 2.5.0')).toBeNull();
    expect(packages('gem i bundler')).toEqual(['bundler']);
    expect(packages("gem install bundler -v '~> 2.5'")).toEqual(['bundler']);
    expect(packages('gem install bundler --version=2.5.0')).toBeNull();
    expect(packages('gem install pkg/mygem-1.0.gem')).toBeNull();
  });

  it('reports each install at its command in the script, LOW, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        docs:
          runs-on: ubuntu-latest
          steps:
            - run: |
                pip install -r requirements.txt
                pip install mkdocs-material && npm i -g markdownlint-cli
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:11 LOW', '8:42 LOW']);
    expect(records.map((r) => r.job)).toEqual(['docs', 'docs']);
    expect(records[0]?.finding.description).toContain('`mkdocs-material`');
  });

  it('reports a lone `npm i -g` script', () => {
    expect(positions(scanWith(RULE, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm i -g markdownlint-cli2\n'))).toEqual(['6:14 LOW']);
  });

  it('checks composite-action steps', () => {
    const records = recordsWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - run: pip install uv\n      shell: bash\n' }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:12 LOW']);
    expect(records[0]?.job).toBeNull();
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: 3
            - run: "pip install"
            - run: "npx --package"
            - run: "cargo install --git"
    `)).toEqual([]);
  });
  it('reads every command of a script that may install, however the tool is quoted', () => {
    const steps = (script: string) => `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n${script.split('\n').map((l) => `          ${l}`).join('\n')}\n`;
    // The per-command word check (file-scripts.ts) sees \`'np''m'\` as the shell does: \`npm\`.
    expect(positions(scanWith(RULE, steps("npm ci\n'np''m' i left-pad\nnpm run build")))).toEqual(['8:11 LOW']);
    expect(positions(scanWith(RULE, steps('npm run build && sudo -E python3 -m pip install requests')))).toEqual(['7:28 LOW']);
    expect(scanWith(RULE, steps('npm run build\ngo test ./...\nuv run pytest\nnpm ci'))).toEqual([]);
  });
});

describe(`${RULE}: npm upgrading itself in a publishing job (issue 25)`, () => {
  const workflow = (upgrade: string, publish: string) => yaml`
    on:
      push:
        tags: ['v*']
    permissions:
      contents: read
      id-token: write
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - run: ${upgrade}
          - run: npm ci
          - run: ${publish}
  `;

  it('LOW where the job publishes: the publish runs whatever npm\'s latest is', () => {
    const findings = scanWith(RULE, workflow('npm install -g npm@latest', 'npm publish --provenance'));
    expect(positions(findings)).toEqual(['12:14 LOW']);
    expect(findings[0]?.description).toContain('in a job that publishes (npm publish, line 14)');
    expect(findings[0]?.description).toContain("the publish job runs whatever npm's latest is");
    expect(positions(scanWith(RULE, workflow('npm i -g npm', 'npm publish')))).toEqual(['12:14 LOW']);
    expect(positions(scanWith(RULE, workflow('npm i --global npm@^11', 'npm publish')))).toEqual(['12:14 LOW']);
  });

  it('negative: an exact npm version, no publish (or a rehearsal), or a project install of npm', () => {
    expect(scanWith(RULE, workflow('npm install -g npm@11.6.2', 'npm publish'))).toEqual([]);
    expect(scanWith(RULE, workflow('npm install -g npm@latest', 'npm test'))).toEqual([]);
    expect(scanWith(RULE, workflow('npm install -g npm@latest', 'npm publish --dry-run'))).toEqual([]);
    expect(scanWith(RULE, workflow('npm install npm@latest', 'npm publish'))).toEqual([]);
  });
});

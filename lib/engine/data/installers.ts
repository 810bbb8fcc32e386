/**
 * Official install scripts of well-known tools, published by the tool's own vendor over HTTPS (`curl … | sh`
 * is the documented way to install them). Piping one into a shell still trusts the vendor's hosting, but that
 * is the same trust as installing the tool at all: `pipe-to-shell` reports them LOW instead of MEDIUM/HIGH.
 *
 * Each entry is a URL prefix without the scheme: a host (`sh.rustup.rs`) matches the host and every path on
 * it; a host with a path (`deno.land/install.sh`) matches that path and what follows. Compare lower-cased.
 * A listed shell installer's Windows sibling at the same path (`install.ps1`, `install.cmd` beside `install.sh`) is the
 * same vendor's script for another shell, and matches its entry.
 * Add an entry only for an installer (or a bootstrapper, unversioned by design) that the tool's own
 * documentation tells users to fetch from that address, with that documentation as `source`. An installer
 * whose file names the tool on a host named after it (`rustup-init.exe` from `win.rustup.rs`) needs no entry
 * (`namedInstaller` below); one whose host names its vendor, not the tool (`astral.sh` for uv), does.
 */
export const VENDOR_INSTALLERS: readonly { prefix: string; tool: string; source: string }[] = [
  { prefix: 'sh.rustup.rs', tool: 'rustup', source: 'https://rust-lang.github.io/rustup/installation/other.html' },
  { prefix: 'win.rustup.rs', tool: 'rustup', source: 'https://rust-lang.github.io/rustup/installation/other.html' },
  { prefix: 'static.rust-lang.org/rustup', tool: 'rustup', source: 'https://rust-lang.github.io/rustup/installation/other.html' },
  { prefix: 'deno.land/install.sh', tool: 'Deno', source: 'https://docs.deno.com/runtime/getting_started/installation/' },
  { prefix: 'deno.land/x/install', tool: 'Deno', source: 'https://docs.deno.com/runtime/getting_started/installation/' },
  { prefix: 'deno.land/install.ps1', tool: 'Deno', source: 'https://docs.deno.com/runtime/getting_started/installation/' },
  { prefix: 'bun.sh/install', tool: 'Bun', source: 'https://bun.sh/docs/installation' },
  { prefix: 'bun.com/install', tool: 'Bun', source: 'https://bun.com/docs/installation' },
  { prefix: 'astral.sh/uv/', tool: 'uv', source: 'https://docs.astral.sh/uv/getting-started/installation/' },
  { prefix: 'astral.sh/ruff/', tool: 'Ruff', source: 'https://docs.astral.sh/ruff/installation/' },
  { prefix: 'raw.githubusercontent.com/nvm-sh/nvm/', tool: 'nvm', source: 'https://github.com/nvm-sh/nvm#installing-and-updating' },
  { prefix: 'raw.githubusercontent.com/homebrew/install/', tool: 'Homebrew', source: 'https://brew.sh' },
  { prefix: 'get.pnpm.io/install', tool: 'pnpm', source: 'https://pnpm.io/installation' },
  { prefix: 'get.volta.sh', tool: 'Volta', source: 'https://docs.volta.sh/guide/getting-started' },
  { prefix: 'fnm.vercel.app/install', tool: 'fnm', source: 'https://github.com/Schniz/fnm#installation' },
  { prefix: 'mise.run', tool: 'mise', source: 'https://mise.jdx.dev/getting-started.html' },
  { prefix: 'pkgx.sh', tool: 'pkgx', source: 'https://docs.pkgx.sh' },
  { prefix: 'install.python-poetry.org', tool: 'Poetry', source: 'https://python-poetry.org/docs/#installing-with-the-official-installer' },
  { prefix: 'pyenv.run', tool: 'pyenv', source: 'https://github.com/pyenv/pyenv-installer' },
  { prefix: 'get.docker.com', tool: 'Docker', source: 'https://docs.docker.com/engine/install/ubuntu/#install-using-the-convenience-script' },
  { prefix: 'get.k3s.io', tool: 'k3s', source: 'https://docs.k3s.io/quick-start' },
  { prefix: 'get.pulumi.com', tool: 'Pulumi', source: 'https://www.pulumi.com/docs/install/' },
  { prefix: 'aka.ms/installazureclideb', tool: 'Azure CLI', source: 'https://learn.microsoft.com/en-us/cli/azure/install-azure-cli-linux' },
  { prefix: 'aka.ms/wingetcreate/', tool: 'WinGet Create', source: 'https://github.com/microsoft/winget-create#using-the-standalone-exe' },
  { prefix: 'aka.ms/install-azd.sh', tool: 'Azure Developer CLI', source: 'https://learn.microsoft.com/en-us/azure/developer/azure-developer-cli/install-azd' },
  { prefix: 'dot.net/v1/dotnet-install', tool: '.NET SDK', source: 'https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-install-script' },
  { prefix: 'dotnet.microsoft.com/download/dotnet/scripts/', tool: '.NET SDK', source: 'https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-install-script' },
  { prefix: 'sdk.cloud.google.com', tool: 'Google Cloud SDK', source: 'https://cloud.google.com/sdk/docs/downloads-interactive' },
  { prefix: 'install.determinate.systems/nix', tool: 'Nix', source: 'https://docs.determinate.systems/determinate-nix/' },
  { prefix: 'nixos.org/nix/install', tool: 'Nix', source: 'https://nixos.org/download/' },
  { prefix: 'get.sdkman.io', tool: 'SDKMAN!', source: 'https://sdkman.io/install' },
  { prefix: 'foundry.paradigm.xyz', tool: 'Foundry', source: 'https://book.getfoundry.sh/getting-started/installation' },
  { prefix: 'starship.rs/install.sh', tool: 'Starship', source: 'https://starship.rs/guide/' },
  { prefix: 'fly.io/install.sh', tool: 'flyctl', source: 'https://fly.io/docs/flyctl/install/' },
  { prefix: 'tailscale.com/install.sh', tool: 'Tailscale', source: 'https://tailscale.com/kb/1031/install-linux' },
  { prefix: 'cli.doppler.com/install.sh', tool: 'Doppler CLI', source: 'https://docs.doppler.com/docs/install-cli' },
  { prefix: 'sentry.io/get-cli', tool: 'Sentry CLI', source: 'https://docs.sentry.io/cli/installation/' },
  { prefix: 'golangci-lint.run/install.sh', tool: 'golangci-lint', source: 'https://golangci-lint.run/welcome/install/' },
  { prefix: 'raw.githubusercontent.com/golangci/golangci-lint/', tool: 'golangci-lint', source: 'https://golangci-lint.run/welcome/install/' },
  { prefix: 'raw.githubusercontent.com/rhysd/actionlint/', tool: 'actionlint', source: 'https://github.com/rhysd/actionlint/blob/main/docs/install.md' },
  { prefix: 'raw.githubusercontent.com/cargo-bins/cargo-binstall/', tool: 'cargo-binstall', source: 'https://github.com/cargo-bins/cargo-binstall#installation' },
  { prefix: 'claude.ai/install.sh', tool: 'Claude Code', source: 'https://docs.anthropic.com/en/docs/claude-code/setup' },
  { prefix: 'opencode.ai/install', tool: 'opencode', source: 'https://opencode.ai/docs/' },
  { prefix: 'hf.co/cli/install', tool: 'Hugging Face CLI', source: 'https://huggingface.co/docs/huggingface_hub/guides/cli' },
  { prefix: 'ollama.com/install.sh', tool: 'Ollama', source: 'https://ollama.com/download/linux' },
  { prefix: 'get.helm.sh', tool: 'Helm', source: 'https://helm.sh/docs/intro/install/' },
  { prefix: 'deb.nodesource.com/setup', tool: 'Node.js (NodeSource packages)', source: 'https://github.com/nodesource/distributions#installation-instructions (curl -fsSL https://deb.nodesource.com/setup_<version>.x | bash -)' },
  { prefix: 'rpm.nodesource.com/setup', tool: 'Node.js (NodeSource packages)', source: 'https://github.com/nodesource/distributions#installation-instructions (curl -fsSL https://rpm.nodesource.com/setup_<version>.x | bash -)' },
  { prefix: 'htmltest.wjdp.uk', tool: 'htmltest', source: 'https://github.com/wjdp/htmltest#floppy_disk-installation (curl https://htmltest.wjdp.uk | bash)' },
  { prefix: 'github.com/rstudio/tinytex-releases/releases/download/', tool: 'TinyTeX', source: 'https://github.com/rstudio/tinytex-releases#releases' },
  { prefix: 'broth.itch.zone/butler/', tool: 'butler (itch.io)', source: 'https://itch.io/docs/butler/installing.html' },
  { prefix: 'broth.itch.ovh/butler/', tool: 'butler (itch.io)', source: 'https://itch.io/docs/butler/installing.html' },
  { prefix: 'get.maestro.mobile.dev', tool: 'Maestro', source: 'https://docs.maestro.dev/getting-started/installing-maestro' },
  { prefix: 'raw.githubusercontent.com/helm/helm/', tool: 'Helm', source: 'https://helm.sh/docs/intro/install/' },
  { prefix: 'cli.codecov.io', tool: 'Codecov CLI', source: 'https://docs.codecov.com/docs/the-codecov-cli' },
  { prefix: 'coverage.codacy.com/get.sh', tool: 'Codacy Coverage Reporter', source: 'https://docs.codacy.com/coverage-reporter/ (bash <(curl -Ls https://coverage.codacy.com/get.sh) report)' },
  { prefix: 'rustwasm.github.io/wasm-pack/installer/', tool: 'wasm-pack', source: 'https://rustwasm.github.io/wasm-pack/installer/' },
  { prefix: 'drager.github.io/wasm-pack/installer/', tool: 'wasm-pack', source: 'https://drager.github.io/wasm-pack/installer/' },
  { prefix: 'repo.anaconda.com/miniconda/', tool: 'Miniconda', source: 'https://www.anaconda.com/docs/getting-started/miniconda/install' },
  { prefix: 'micro.mamba.pm/api/micromamba/', tool: 'micromamba', source: 'https://mamba.readthedocs.io/en/latest/installation/micromamba-installation.html' },
  { prefix: 'micro.mamba.pm/install.sh', tool: 'micromamba', source: 'https://mamba.readthedocs.io/en/latest/installation/micromamba-installation.html' },
  { prefix: 'raw.githubusercontent.com/habitat-sh/habitat/main/components/hab/install.sh', tool: 'Chef Habitat', source: 'https://docs.chef.io/habitat/install_habitat/' },
  { prefix: 'rclone.org/install.sh', tool: 'rclone', source: 'https://rclone.org/install/#script-installation' },
  { prefix: 'ftp.postgresql.org/pub/source/', tool: 'PostgreSQL (source)', source: 'https://www.postgresql.org/ftp/source/' },
  { prefix: 'amazon-ecs-cli.s3.amazonaws.com/', tool: 'Amazon ECS CLI', source: 'https://docs.aws.amazon.com/AmazonECS/latest/developerguide/ECS_CLI_installation.html' },
  { prefix: 'get.nexte.st/', tool: 'cargo-nextest', source: 'https://nexte.st/docs/installation/pre-built-binaries/ (`curl -LsSf https://get.nexte.st/latest/linux | tar zxf - -C ${CARGO_HOME:-~/.cargo}/bin`)' },
  { prefix: 'awscli.amazonaws.com/', tool: 'AWS CLI', source: 'https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html' },
  { prefix: 'dl.min.io/client/mc/release/', tool: 'MinIO Client (mc)', source: 'https://min.io/docs/minio/linux/reference/minio-mc.html (curl https://dl.min.io/client/mc/release/linux-amd64/mc)' },
  { prefix: 'dl.google.com/android/repository/', tool: 'Android SDK and NDK', source: 'https://developer.android.com/ndk/downloads' },
  { prefix: 'get.jetify.com/devbox', tool: 'Devbox', source: 'https://www.jetify.com/docs/devbox/installing-devbox/' },
  { prefix: 'install.julialang.org', tool: 'Julia (juliaup)', source: 'https://julialang.org/downloads/' },
  { prefix: 'get-ghcup.haskell.org', tool: 'GHCup', source: 'https://www.haskell.org/ghcup/install/' },
  { prefix: 'sh.vector.dev', tool: 'Vector', source: 'https://vector.dev/docs/setup/installation/' },
  { prefix: 'cli.moonrepo.dev/install', tool: 'moon', source: 'https://moonrepo.dev/docs/install' },
  { prefix: 'moonrepo.dev/install', tool: 'moon', source: 'https://moonrepo.dev/docs/install' },
  { prefix: 'aka.ms/vs/', tool: 'Visual Studio', source: 'https://learn.microsoft.com/en-us/visualstudio/install/build-tools-container' },
  { prefix: 'apt.llvm.org/llvm.sh', tool: 'LLVM', source: 'https://apt.llvm.org/' },
  { prefix: 'bootstrap.pypa.io/get-pip.py', tool: 'pip', source: 'https://pip.pypa.io/en/stable/installation/' },
  { prefix: 'get.gitpod.io', tool: 'Gitpod', source: 'https://www.gitpod.io/docs' },
  // Distributions rather than installers: the vendor's own download host, which its documentation names.
  { prefix: 'nodejs.org/dist/', tool: 'Node.js', source: 'https://nodejs.org/en/download' },
  { prefix: 'nodejs.org/download/', tool: 'Node.js', source: 'https://nodejs.org/en/download (release, nightly and rc builds under /download/)' },
  { prefix: 'scan.coverity.com/download/', tool: 'Coverity Scan build tool', source: 'https://scan.coverity.com/download (fetched with the project\'s own token)' },
  // The Linux Kernel Archives' distribution of kernel.org projects (git's release tarballs among them).
  { prefix: 'mirrors.edge.kernel.org/pub/', tool: 'kernel.org archives', source: 'https://www.kernel.org/ (git: https://git-scm.com/download/linux, "tarballs on kernel.org")' },
  { prefix: 'cdn.kernel.org/pub/', tool: 'kernel.org archives', source: 'https://www.kernel.org/' },
  { prefix: 'www.kernel.org/pub/', tool: 'kernel.org archives', source: 'https://www.kernel.org/' },
];

/** The vendor installer a URL is, or null. Only `https://` URLs qualify: over plain HTTP anyone on the path can swap it. */
export function vendorInstaller(url: string | null): string | null {
  return vendorEntry(url)?.tool ?? null;
}

/** The table's entry for a URL (its tool and the host it matched), or null. */
export function vendorEntry(url: string | null): { tool: string; host: string; where: string } | null {
  if (url === null) return null;
  const match = /^https:\/\/([^\s'"]+)$/i.exec(url.trim());
  if (match === null) return null;
  // The vendor's Windows sibling of a listed shell installer (`claude.ai/install.ps1`, `.cmd` beside `install.sh`): the
  // same script for another shell, at the same place.
  const target = (match[1] ?? '').toLowerCase().replace(/\.(?:ps1|cmd|bat)$/, '.sh');
  for (const { prefix, tool } of VENDOR_INSTALLERS) {
    if (target === prefix || target.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || (prefix.includes('/') && target.startsWith(prefix))) {
      const host = prefix.split('/')[0] ?? prefix;
      return { tool, host, where: host === 'raw.githubusercontent.com' ? `the vendor's own repository \`${prefix.split('/').slice(1, 3).join('/')}\` on GitHub` : `the vendor's own host \`${host}\`` };
    }
  }
  return null;
}

/** Labels of a host that name no one in particular (a service, a CDN, a code host), never a tool's vendor. */
const SERVICE_HOSTS = new Set(['github', 'githubusercontent', 'gitlab', 'bitbucket', 'gist', 'amazonaws', 'cloudfront', 'azureedge', 'googleapis', 'sourceforge', 'jsdelivr', 'unpkg', 'cloudflare', 'fastly', 'akamaized', 'netlify', 'vercel', 'herokuapp', 'pages', 'blob', 'windows', 'storage']);

/**
 * The tool an installer's file name names: `rustup-init.exe`, `rustup-init.sh`, `install-misspell.sh`,
 * `poetry_installer.py`, `get-foo.sh`, `foo-setup.exe` (the word `init`, `install`, `installer`, `setup`,
 * `bootstrap` or `get` beside the tool's name). Null for a name that says no tool (`install.sh`) or no installer.
 */
export function installerFileTool(file: string): string | null {
  const name = file.toLowerCase().replace(/\.(?:sh|bash|ps1|py|exe|msi|cmd|bat)$/, '');
  if (name.length > 64) return null;
  const match =
    /^([a-z][a-z0-9]{1,30}(?:[-_][a-z][a-z0-9]*)?)[-_](?:init|install|installer|setup|bootstrap)$/.exec(name) ??
    /^(?:install|get|setup|bootstrap)[-_]([a-z][a-z0-9]{1,30}(?:[-_][a-z][a-z0-9]*)?)$/.exec(name);
  return match?.[1] ?? null;
}

/**
 * An installer on the tool's own host, found without the table: an `https://` URL whose installer file (its
 * last path segment, or `saved`, the name the download is saved as) names a tool, served from a host whose
 * registered name is that tool's (`win.rustup.rs` for `rustup-init.exe`: `rustup`), or from the GitHub
 * repository named after it (`raw.githubusercontent.com/golangci/misspell/…/install-misspell.sh`). The tool's
 * name must be the host's registered name or the repository's, spelled with or without hyphens; a gist, someone
 * else's repository, a CDN or a mirror is not the tool's. Returns the tool and the host, or null.
 */
export function namedInstaller(url: string | null, saved: string | null = null): { tool: string; host: string; where: string } | null {
  if (url === null) return null;
  const match = /^https:\/\/(?:[^/@\s]*@)?([a-z0-9.-]+)(?::\d+)?(\/[^?#\s'"]*)?$/i.exec(url.trim());
  if (match === null) return null;
  const host = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
  const path = (match[2] ?? '').split('/').filter((s) => s !== '');
  const files = [path.at(-1) ?? '', (saved ?? '').replace(/\\/g, '/').split('/').at(-1) ?? ''];
  const plain = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const file of files) {
    const tool = installerFileTool(file.replace(/^["']|["']$/g, ''));
    if (tool === null || plain(tool).length < 3) continue;
    let owner: string | undefined;
    const github = host === 'raw.githubusercontent.com' || host === 'github.com' || host === 'www.github.com';
    if (host === 'raw.githubusercontent.com') owner = path[1];
    else if (github) owner = path[2] === 'releases' || path[2] === 'raw' ? path[1] : undefined;
    else {
      const labels = host.split('.');
      const registered = labels.length >= 2 ? labels[labels.length - 2] : undefined;
      owner = registered !== undefined && !SERVICE_HOSTS.has(registered) ? registered : undefined;
    }
    if (owner === undefined || plain(owner) !== plain(tool)) continue;
    const name = tool.replace(/_/g, '-');
    const where = github
      ? `the tool's own repository \`${(path[0] ?? '').replace(/`/g, '')}/${owner.replace(/`/g, '')}\` on GitHub`
      : `the vendor's own host \`${host}\` (named after ${name})`;
    return { tool: name, host, where };
  }
  return null;
}

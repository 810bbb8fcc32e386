/**
 * Official install scripts of well-known tools, published by the tool's own vendor over HTTPS (`curl … | sh`
 * is the documented way to install them). Piping one into a shell still trusts the vendor's hosting, but that
 * is the same trust as installing the tool at all: `pipe-to-shell` reports them LOW instead of MEDIUM/HIGH.
 *
 * Each entry is a URL prefix without the scheme: a host (`sh.rustup.rs`) matches the host and every path on
 * it; a host with a path (`deno.land/install.sh`) matches that path and what follows. Compare lower-cased.
 * Add an entry only for an installer the tool's own documentation tells users to pipe into a shell.
 */
export const VENDOR_INSTALLERS: readonly { prefix: string; tool: string }[] = [
  { prefix: 'sh.rustup.rs', tool: 'rustup' },
  { prefix: 'static.rust-lang.org/rustup', tool: 'rustup' },
  { prefix: 'deno.land/install.sh', tool: 'Deno' },
  { prefix: 'deno.land/x/install', tool: 'Deno' },
  { prefix: 'deno.land/install.ps1', tool: 'Deno' },
  { prefix: 'bun.sh/install', tool: 'Bun' },
  { prefix: 'bun.com/install', tool: 'Bun' },
  { prefix: 'astral.sh/uv/', tool: 'uv' },
  { prefix: 'astral.sh/ruff/', tool: 'Ruff' },
  { prefix: 'raw.githubusercontent.com/nvm-sh/nvm/', tool: 'nvm' },
  { prefix: 'raw.githubusercontent.com/homebrew/install/', tool: 'Homebrew' },
  { prefix: 'get.pnpm.io/install', tool: 'pnpm' },
  { prefix: 'get.volta.sh', tool: 'Volta' },
  { prefix: 'fnm.vercel.app/install', tool: 'fnm' },
  { prefix: 'mise.run', tool: 'mise' },
  { prefix: 'pkgx.sh', tool: 'pkgx' },
  { prefix: 'install.python-poetry.org', tool: 'Poetry' },
  { prefix: 'pyenv.run', tool: 'pyenv' },
  { prefix: 'get.docker.com', tool: 'Docker' },
  { prefix: 'get.k3s.io', tool: 'k3s' },
  { prefix: 'get.pulumi.com', tool: 'Pulumi' },
  { prefix: 'aka.ms/installazureclideb', tool: 'Azure CLI' },
  { prefix: 'aka.ms/install-azd.sh', tool: 'Azure Developer CLI' },
  { prefix: 'dot.net/v1/dotnet-install', tool: '.NET SDK' },
  { prefix: 'dotnet.microsoft.com/download/dotnet/scripts/', tool: '.NET SDK' },
  { prefix: 'sdk.cloud.google.com', tool: 'Google Cloud SDK' },
  { prefix: 'install.determinate.systems/nix', tool: 'Nix' },
  { prefix: 'nixos.org/nix/install', tool: 'Nix' },
  { prefix: 'get.sdkman.io', tool: 'SDKMAN!' },
  { prefix: 'foundry.paradigm.xyz', tool: 'Foundry' },
  { prefix: 'starship.rs/install.sh', tool: 'Starship' },
  { prefix: 'fly.io/install.sh', tool: 'flyctl' },
  { prefix: 'tailscale.com/install.sh', tool: 'Tailscale' },
  { prefix: 'cli.doppler.com/install.sh', tool: 'Doppler CLI' },
  { prefix: 'sentry.io/get-cli', tool: 'Sentry CLI' },
  { prefix: 'golangci-lint.run/install.sh', tool: 'golangci-lint' },
  { prefix: 'raw.githubusercontent.com/golangci/golangci-lint/', tool: 'golangci-lint' },
  { prefix: 'raw.githubusercontent.com/rhysd/actionlint/', tool: 'actionlint' },
  { prefix: 'raw.githubusercontent.com/cargo-bins/cargo-binstall/', tool: 'cargo-binstall' },
  { prefix: 'claude.ai/install.sh', tool: 'Claude Code' },
  { prefix: 'opencode.ai/install', tool: 'opencode' },
  { prefix: 'hf.co/cli/install', tool: 'Hugging Face CLI' },
  { prefix: 'ollama.com/install.sh', tool: 'Ollama' },
  { prefix: 'get.helm.sh', tool: 'Helm' },
  { prefix: 'raw.githubusercontent.com/helm/helm/', tool: 'Helm' },
  { prefix: 'cli.codecov.io', tool: 'Codecov CLI' },
  { prefix: 'get.jetify.com/devbox', tool: 'Devbox' },
  { prefix: 'install.julialang.org', tool: 'Julia (juliaup)' },
  { prefix: 'get-ghcup.haskell.org', tool: 'GHCup' },
  { prefix: 'sh.vector.dev', tool: 'Vector' },
  { prefix: 'cli.moonrepo.dev/install', tool: 'moon' },
  { prefix: 'moonrepo.dev/install', tool: 'moon' },
  { prefix: 'get.gitpod.io', tool: 'Gitpod' },
];

/** The vendor installer a URL is, or null. Only `https://` URLs qualify: over plain HTTP anyone on the path can swap it. */
export function vendorInstaller(url: string | null): string | null {
  if (url === null) return null;
  const match = /^https:\/\/([^\s'"]+)$/i.exec(url.trim());
  if (match === null) return null;
  const target = (match[1] ?? '').toLowerCase();
  for (const { prefix, tool } of VENDOR_INSTALLERS) {
    if (target === prefix || target.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || (prefix.includes('/') && target.startsWith(prefix))) return tool;
  }
  return null;
}

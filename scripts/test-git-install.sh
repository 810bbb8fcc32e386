#!/usr/bin/env bash
# Installs the command-line scanner from the Git repository as a user without a clone does, with the machine's
# own Node and npm, from a bare copy of this repository's committed HEAD (what a Git host serves):
#
# 1. `npm install --global "$(npm pack <repository URL> | tail -n 1)"`: npm clones the repository, installs the development
#    tools, runs `prepare` (the build) and packs the result, which is installed. (A plain `npm install --global
#    <repository URL>` of a branch does not work with npm 7 to 11: a global install from Git installs no
#    devDependencies before `prepare`, npm/cli#8440.)
# 2. `npm install --global <repository URL>#v1`: a release commit as the release workflow makes it
#    (scripts/action-release.sh: the bundle committed, no build needed), which is also what
#    `uses: <owner>/chainbreaker@v1` runs.
#
# Each installed command then scans an example. Needs the npm registry (for the development tools) and a few
# minutes; CI runs it (.ci/run), `npm test` does not.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The machine's node and npm, not the project's node_modules/.bin (an npm script puts those first).
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v 'node_modules/.bin' | paste -sd: -)"
export PATH
echo "git install: node $(node --version), npm $(npm --version)"
expected="$(node -p 'require(process.argv[1]).version' "$root/package.json")"

check() { # <installed bin> <what>
  local bin="$1" what="$2" version code
  version="$("$bin" --version)"
  [ "$version" = "$expected" ] || { echo "git install ($what): --version printed '$version', expected '$expected'" >&2; exit 1; }
  set +e
  "$bin" scan "$root/examples/issue-triage-bot" > "$work/report.txt"
  code=$?
  set -e
  [ "$code" -eq 1 ] || { echo "git install ($what): scan exited $code, expected 1 (the example has a CRITICAL attack path)" >&2; cat "$work/report.txt" >&2; exit 1; }
  grep -q '^Attack paths' "$work/report.txt" || { echo "git install ($what): the report has no attack paths" >&2; exit 1; }
  "$bin" rules script-injection | grep -q '^# script-injection' || { echo "git install ($what): chainbreaker rules prints no rule doc" >&2; exit 1; }
  echo "git install ($what): ok (chainbreaker $version, scan exit $code, rule docs present)"
}

git clone --quiet --bare "$root" "$work/chainbreaker.git"

# 1. A branch: npm pack builds it, the tarball is installed.
start=$(date +%s)
mkdir "$work/pack"
tarball="$(cd "$work/pack" && npm pack --loglevel=error "git+file://$work/chainbreaker.git" | tail -n 1)"
npm install --global --prefix "$work/prefix-branch" --no-audit --no-fund --loglevel=error "$work/pack/$tarball"
echo "git install (branch, npm pack): installed in $(( $(date +%s) - start )) s"
check "$work/prefix-branch/bin/chainbreaker" 'branch, npm pack'

# 2. A release commit, tagged v1 in the bare repository as the release workflow tags it.
git clone --quiet "$work/chainbreaker.git" "$work/release"
release_tarball="$(cd "$root" && node --import tsx scripts/pack-release.ts --out "$work" --no-build)"
(cd "$work/release" && bash scripts/action-release.sh "$release_tarball" "v$expected with its bundle" > /dev/null && git tag v1 && git push --quiet origin v1)
start=$(date +%s)
npm install --global --prefix "$work/prefix-release" --no-audit --no-fund --loglevel=error "git+file://$work/chainbreaker.git#v1"
echo "git install (release tag v1): installed in $(( $(date +%s) - start )) s"
check "$work/prefix-release/bin/chainbreaker" 'release tag v1'
[ -f "$work/prefix-release/lib/node_modules/chainbreaker/dist/action.js" ] || { echo 'git install: the release commit has no dist/action.js for the Action' >&2; exit 1; }

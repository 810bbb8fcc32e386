#!/usr/bin/env bash
# Installs the command-line scanner as a user does without a clone, `npm install --global <repository URL>`,
# from a bare copy of this repository's committed HEAD (what a Git host serves), with the machine's own Node
# and npm: npm clones it, installs the development tools, runs `prepare` (the build), packs and installs the
# result. Then runs the installed command. Needs the npm registry (for the development tools) and a few
# minutes; CI runs it (.ci/run), `npm test` does not.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The machine's node and npm, not the project's node_modules/.bin (an npm script puts those first).
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v 'node_modules/.bin' | paste -sd: -)"
export PATH
echo "git install: node $(node --version), npm $(npm --version)"

git clone --quiet --bare "$root" "$work/chainbreaker.git"
start=$(date +%s)
npm install --global --prefix "$work/prefix" --no-audit --no-fund --loglevel=error "git+file://$work/chainbreaker.git"
echo "git install: installed in $(( $(date +%s) - start )) s"

bin="$work/prefix/bin/chainbreaker"
version="$("$bin" --version)"
expected="$(node -p 'require(process.argv[1]).version' "$root/package.json")"
[ "$version" = "$expected" ] || { echo "git install: --version printed '$version', expected '$expected'" >&2; exit 1; }

set +e
"$bin" scan "$root/examples/issue-triage-bot" > "$work/report.txt"
code=$?
set -e
[ "$code" -eq 1 ] || { echo "git install: scan exited $code, expected 1 (the example has a CRITICAL attack path)" >&2; cat "$work/report.txt" >&2; exit 1; }
grep -q '^Attack paths' "$work/report.txt" || { echo 'git install: the report has no attack paths' >&2; exit 1; }
"$bin" rules script-injection | grep -q '^# script-injection' || { echo 'git install: chainbreaker rules prints no rule doc' >&2; exit 1; }
echo "git install: ok (chainbreaker $version; scan exit $code; rule docs present)"

#!/usr/bin/env bash
# The commit the GitHub Action and a Git install of a release run: the checked-out release tag with the published
# tarball's dist/ (the bundle, which the repository does not commit) and its package.json (the manifest for
# users: no scripts, so installing it from Git builds nothing). Used by the release workflow, which pushes the
# commit to releases/vN and moves the tag vN to it, and by scripts/test-git-install.sh.
#
#   scripts/action-release.sh <release tarball> <commit message>
set -euo pipefail
tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
message="$2"
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tarball" -C "$tmp"
[ -f "$tmp/package/dist/action.js" ] || { echo "action-release: $1 has no dist/action.js" >&2; exit 1; }
rm -rf dist
cp -R "$tmp/package/dist" dist
cp "$tmp/package/package.json" package.json
git add --force dist package.json
git -c user.name="${GIT_AUTHOR_NAME:-github-actions[bot]}" -c user.email="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
  commit --quiet -m "$message"
git rev-parse HEAD

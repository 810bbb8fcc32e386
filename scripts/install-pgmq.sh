#!/usr/bin/env bash
# Installs the pgmq extension (the monitoring queue's, docs/deployment.md "The monitoring queue") into the
# machine's PostgreSQL server, so that `create extension pgmq` works there: CI's data tests run on that server.
# pgmq is pure SQL (a control file and an install script, no C module), taken from the npm package that is
# also PGlite's loader for it (@electric-sql/pglite-pgmq, installed by `npm ci`): one version everywhere.
# Needs write access to the server's extension directory (root, or sudo). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

bundle=node_modules/@electric-sql/pglite-pgmq/dist/pgmq.tar.gz
[ -f "$bundle" ] || { echo "install-pgmq: $bundle is missing (run npm ci first)" >&2; exit 1; }

if command -v pg_config >/dev/null 2>&1 && [ -d "$(pg_config --sharedir)/extension" ]; then
  target="$(pg_config --sharedir)/extension"
else
  # Debian's server packages without postgresql-server-dev: /usr/share/postgresql/<major>/extension.
  target="$(ls -d /usr/share/postgresql/*/extension 2>/dev/null | sort -V | tail -n 1)"
fi
[ -n "${target:-}" ] && [ -d "$target" ] || { echo "install-pgmq: no PostgreSQL extension directory found" >&2; exit 1; }

SUDO=""; [ "$(id -u)" -ne 0 ] && [ ! -w "$target" ] && SUDO="sudo"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
tar -xzf "$bundle" -C "$tmp"
$SUDO cp "$tmp"/share/postgresql/extension/pgmq.control "$tmp"/share/postgresql/extension/pgmq--*.sql "$target/"
echo "install-pgmq: pgmq $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$tmp/share/postgresql/extension/pgmq.control") in $target"

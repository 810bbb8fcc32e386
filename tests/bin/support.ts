import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CATALOG } from '../../lib/engine/catalog.js';

/**
 * A workflow on which, of the implemented rules, only `missing-timeout` fires: LOW, since its runner is a larger
 * runner (on a standard GitHub-hosted one it would be INFO).
 */
export const NO_TIMEOUT = `on: push
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest-8-cores
    steps:
      - run: make
`;

/** A workflow with nothing to report. */
export const CLEAN = `name: CI
on: push
permissions:
  contents: read
jobs:
  build:
    name: Build
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - run: make
`;

/** Not YAML: `invalid-workflow` (INFO). */
export const BROKEN = 'on: [push\njobs: {\n';

const roots: string[] = [];

/** A temporary directory holding `files` (path -> text); removed by `cleanup`. */
export function tempDir(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'chainbreaker-cli-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export function cleanup(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** `--disable` arguments that leave only `ids` enabled, so tests do not depend on rules others are writing. */
export function only(...ids: string[]): string[] {
  return ['--disable', CATALOG.map((r) => r.id).filter((id) => !ids.includes(id)).join(',')];
}

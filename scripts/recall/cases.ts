/**
 * What a peer's test suite expects, in one shape for every peer: a case is one fixture, one of the peer's
 * checks, and whether that check must fire on it or stay quiet. The harness scans each fixture with our
 * engine and compares (scripts/recall/score.ts).
 */
import { createHash } from 'node:crypto';
import type { RepositoryFile } from '../../lib/engine/types.js';

export const PEERS = ['zizmor', 'pipefort', 'poutine'] as const;
export type Peer = (typeof PEERS)[number];

/** Files scanned together as one repository (a fixture, or a directory of them). */
export interface ScanUnit {
  id: string;
  files: RepositoryFile[];
  /** Rule options that translate the peer's configuration for this fixture (forbidden-uses policies). */
  ruleOptions?: Record<string, unknown>;
}

export interface Case {
  /** The peer's check id (for Pipefort the rule id its catalog declares). */
  check: string;
  /** The peer's name for the fixture: a test-data path, a test and subtest name. */
  fixture: string;
  unit: ScanUnit;
  /** The file of the unit the expectation is about; null: any file of the unit. */
  target: string | null;
  expect: 'fires' | 'clean';
  /** Where the peer states it (`file:line` in its tests), one entry per statement. */
  where: string[];
}

/** An expectation the harness read but cannot measure offline (remote state, another CI system). */
export interface Unmeasured {
  check: string;
  fixture: string;
  where: string;
  why: string;
}

export interface PeerReading {
  peer: Peer;
  cases: Case[];
  unmeasured: Unmeasured[];
  /** Assertions in the peer's tests that state no rule expectation the harness could read (shown with --verbose). */
  unread: { where: string; text: string }[];
  /** One line on what was read, for the report's header. */
  summary: string;
}

/** A scan unit for `files` (its id is a digest of paths, texts and options, so equal fixtures scan once). */
export function unit(files: RepositoryFile[], ruleOptions?: Record<string, unknown>): ScanUnit {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) hash.update(`${f.path}\0${f.text}\0`);
  if (ruleOptions !== undefined) hash.update(JSON.stringify(ruleOptions));
  return { id: hash.digest('hex').slice(0, 16), files, ...(ruleOptions === undefined ? {} : { ruleOptions }) };
}

/** A one-line failure of the harness's input (a directory that is not the peer's repository). */
export class RecallInputError extends Error {}

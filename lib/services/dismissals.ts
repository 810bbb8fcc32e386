import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import * as db from '../db/operations.js';
import type { Dismissal, Dismissals } from '../db/types.js';
import type { DismissalBody } from '../api/schemas.js';
import { conflict, notFound } from '../http/errors.js';

/**
 * Triage: a user's decisions that a finding or an attack path of one of their repositories is a false
 * positive, an accepted risk or won't be fixed, by fingerprint. Every call is scoped by the user; the
 * database functions check that the user owns the repository (else 404) and keep the audit trail. What the
 * decisions change: `POST /api/scan` leaves dismissed findings out of its findings and counts
 * (lib/services/scan.ts), and the attack paths neither form a path from a dismissed finding nor list a
 * dismissed path with the others (lib/services/attack-paths.ts). The stored scans keep every finding.
 */

export async function listDismissals(user: User, repositoryId: string): Promise<Dismissals> {
  const found = await db.listDismissals(await database(), user.id, repositoryId);
  if (found === null) throw notFound();
  return found;
}

export async function dismiss(user: User, repositoryId: string, fingerprint: string, body: DismissalBody): Promise<Dismissal> {
  const stored = await db.setDismissal(await database(), user.id, repositoryId, {
    fingerprint,
    kind: body.kind,
    reason: body.reason,
    comment: body.comment,
  });
  if ('limit_reached' in stored) throw conflict('This repository already has 5,000 dismissals; reopen some first.');
  return stored;
}

export async function reopen(user: User, repositoryId: string, fingerprint: string): Promise<void> {
  await db.clearDismissal(await database(), user.id, repositoryId, fingerprint);
}

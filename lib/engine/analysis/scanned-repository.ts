/**
 * The scanned repository's `owner/name` while a scan builds its workflows (`withScannedRepository`, called by
 * `scanRepository` with the repository the caller knows: the service's `full_name`, the CLI's `origin`), or null when
 * the caller does not know it. Read by the conditions (a comparison with another repository of the same owner: a
 * checkout of a fork, `origin` the contributor's, must not make `github.repository == 'upstream/name'` false) and by
 * the runner reading (an owner's own name in a runner label is its choice of words).
 */
let scanned: { owner: string; name: string } | null = null;

/** Runs `f` with the scanned repository known (`owner/name`, or null). */
export function withScannedRepository<T>(fullName: string | null, f: () => T): T {
  const previous = scanned;
  const [owner, name] = (fullName ?? '').toLowerCase().split('/');
  scanned = owner && name ? { owner, name } : null;
  try {
    return f();
  } finally {
    scanned = previous;
  }
}

/** The scanned repository, lower-cased, or null when the scan does not know it. */
export function scannedRepository(): { readonly owner: string; readonly name: string } | null {
  return scanned;
}

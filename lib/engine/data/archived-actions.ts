/**
 * Offline snapshot of action repositories that their owners archived (read-only: no fixes, security
 * ones included), with the maintained replacement where the archive notice names one. Each entry's
 * source is the repository page, which shows the archive banner and notice.
 *
 * How it is made: `GITHUB_TOKEN=... npm run gen:archived` (scripts/gen-archived-actions.ts) asks GitHub's
 * `isArchived` for these entries and the action repositories of the shared corpus (or `--list FILE`),
 * drops the entries no longer archived, adds the newly archived ones, keeps the replacements (written by
 * hand) and rewrites this file with the date. Last made: 2026-11-01, by hand from the repository pages (one entry
 * added 2026-12-02, `tibdex/github-app-token`);
 * the generator has not been run against GitHub yet (it was written where GitHub is unreachable), so the
 * entries below are the hand-kept ones. With `--online` the repositories missing here are asked live
 * (lib/online/archived.ts).
 */
export interface ArchivedAction {
  /** `owner/repo`, lower case. */
  slug: string;
  replacement: string | null;
  source: string;
}

export const ARCHIVED_ACTIONS_SNAPSHOT_DATE = '2026-11-01';

export const ARCHIVED_ACTIONS: readonly ArchivedAction[] = [
  { slug: 'actions/create-release', replacement: '`gh release create` or `softprops/action-gh-release`', source: 'https://github.com/actions/create-release' },
  { slug: 'actions/upload-release-asset', replacement: '`gh release upload` or `softprops/action-gh-release`', source: 'https://github.com/actions/upload-release-asset' },
  { slug: 'actions/setup-ruby', replacement: '`ruby/setup-ruby`', source: 'https://github.com/actions/setup-ruby' },
  { slug: 'actions/setup-elixir', replacement: '`erlef/setup-beam`', source: 'https://github.com/actions/setup-elixir' },
  { slug: 'actions/setup-haskell', replacement: '`haskell-actions/setup`', source: 'https://github.com/actions/setup-haskell' },
  { slug: 'haskell/actions', replacement: '`haskell-actions/setup`', source: 'https://github.com/haskell/actions' },
  { slug: 'actions-rs/toolchain', replacement: '`dtolnay/rust-toolchain` or `rustup` in a `run:` step', source: 'https://github.com/actions-rs/toolchain' },
  { slug: 'actions-rs/cargo', replacement: '`cargo` in a `run:` step', source: 'https://github.com/actions-rs/cargo' },
  { slug: 'actions-rs/clippy-check', replacement: '`cargo clippy` in a `run:` step', source: 'https://github.com/actions-rs/clippy-check' },
  { slug: 'actions-rs/audit-check', replacement: '`rustsec/audit-check`', source: 'https://github.com/actions-rs/audit-check' },
  { slug: 'actions-rs/tarpaulin', replacement: '`cargo tarpaulin` in a `run:` step', source: 'https://github.com/actions-rs/tarpaulin' },
  { slug: 'actions-rs/grcov', replacement: '`grcov` in a `run:` step', source: 'https://github.com/actions-rs/grcov' },
  { slug: 'actions-rs/install', replacement: '`taiki-e/install-action` or `cargo install --locked`', source: 'https://github.com/actions-rs/install' },
  // Archived on 2025-07-08 (its repository page's banner; the migration issues and pull requests of many projects cite it).
  { slug: 'tibdex/github-app-token', replacement: '`actions/create-github-app-token`', source: 'https://github.com/tibdex/github-app-token' },
];

export function archivedAction(slug: string): ArchivedAction | undefined {
  return ARCHIVED_ACTIONS.find((a) => a.slug === slug);
}

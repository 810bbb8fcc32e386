/**
 * What GitHub's hosted runner images already provide, and the actions that only wrap one of those tools.
 *
 * Each image family names the runner-images readme it was read from, with the image version (which starts
 * with the build date, `YYYYMMDD`). A family is listed for a tool only when every readme we read for that
 * family lists the tool; a label we did not read (an Arm partner image, a macOS version other than 15,
 * larger runners, macOS 14 and older) matches no family, so no finding is made for it.
 */

/** A tool on a runner image: the command a `run:` step calls instead of the action. */
export type RunnerTool = 'gh' | 'jq' | 'yq' | 'docker';

export interface RunnerImage {
  family: 'ubuntu' | 'ubuntu-slim' | 'windows' | 'macos';
  /** The `runs-on` labels of the family (exact, lower case). `*-latest` moves between versions of the family. */
  labels: readonly string[];
  tools: readonly RunnerTool[];
  /** The readmes read, each with its image version (its first eight digits are the build date). */
  sources: readonly string[];
}

const README = 'https://github.com/actions/runner-images/blob/main/images';

export const RUNNER_IMAGES: readonly RunnerImage[] = [
  {
    family: 'ubuntu',
    // `ubuntu-latest` moves from 24.04 to 26.04 (announced for November 2026): all three readmes list the tools.
    labels: ['ubuntu-latest', 'ubuntu-26.04', 'ubuntu-24.04', 'ubuntu-22.04'],
    // Each lists GitHub CLI, jq, yq and Docker Client and Server.
    tools: ['gh', 'jq', 'yq', 'docker'],
    sources: [
      `${README}/ubuntu/Ubuntu2604-Readme.md (image 20260712.72.1)`,
      `${README}/ubuntu/Ubuntu2404-Readme.md (image 20250202.1.0)`,
      `${README}/ubuntu/Ubuntu2204-Readme.md (image 20250202.1.0)`,
    ],
  },
  {
    family: 'ubuntu-slim',
    labels: ['ubuntu-slim'],
    // A container: Docker Client only, no daemon a job can rely on, so not `docker`.
    tools: ['gh', 'jq', 'yq'],
    sources: [`${README}/ubuntu-slim/ubuntu-slim-Readme.md (image 20261005.17.1)`],
  },
  {
    family: 'windows',
    labels: ['windows-latest', 'windows-2025', 'windows-2022'],
    // No yq on either readme; Docker runs Windows containers only, so not `docker` either.
    tools: ['gh', 'jq'],
    sources: [`${README}/windows/Windows2025-Readme.md (image 20250319.1.0)`, `${README}/windows/Windows2022-Readme.md (image 20250203.1.0)`],
  },
  {
    family: 'macos',
    // `macos-latest` is macOS 26 since June 2026; both readmes list GitHub CLI, jq and yq.
    labels: ['macos-latest', 'macos-26', 'macos-15'],
    tools: ['gh', 'jq', 'yq'],
    sources: [`${README}/macos/macos-26-Readme.md (image 20260608.0215.1)`, `${README}/macos/macos-15-Readme.md (image 20260609.0193.1)`],
  },
];

export interface SuperfluousAction {
  /** `owner/repo` in lower case. */
  slug: string;
  tool: RunnerTool;
  /** What to run instead, in a `run:` step. */
  instead: string;
  /** Where the action's behaviour (and so the equivalence) is documented. */
  source: string;
}

/**
 * Actions whose whole job is one call of a tool the image has. Not listed, on purpose: `setup-*` actions
 * (they pin a version the image's default would not, add caching and registry auth), `dtolnay/rust-toolchain`
 * (it also sets cargo's environment), `peter-evans/create-pull-request` and `create-or-update-comment` (`gh`
 * cannot do what they do in one call).
 */
export const SUPERFLUOUS_ACTIONS: readonly SuperfluousAction[] = [
  { slug: 'softprops/action-gh-release', tool: 'gh', instead: '`gh release create` (and `gh release upload`)', source: 'https://github.com/softprops/action-gh-release#inputs' },
  { slug: 'ncipollo/release-action', tool: 'gh', instead: '`gh release create` (and `gh release upload`)', source: 'https://github.com/ncipollo/release-action#action-inputs' },
  { slug: 'elgohr/github-release-action', tool: 'gh', instead: '`gh release create`', source: 'https://github.com/elgohr/Github-Release-Action' },
  { slug: 'svenstaro/upload-release-action', tool: 'gh', instead: '`gh release upload` (with `--clobber` to overwrite)', source: 'https://github.com/svenstaro/upload-release-action#input-variables' },
  { slug: 'actions/create-release', tool: 'gh', instead: '`gh release create`', source: 'https://github.com/actions/create-release#readme' },
  { slug: 'actions/upload-release-asset', tool: 'gh', instead: '`gh release upload`', source: 'https://github.com/actions/upload-release-asset#readme' },
  { slug: 'dacbd/create-issue-action', tool: 'gh', instead: '`gh issue create`', source: 'https://github.com/dacbd/create-issue-action#inputs' },
  { slug: 'actions-ecosystem/action-add-labels', tool: 'gh', instead: '`gh issue edit --add-label` or `gh pr edit --add-label`', source: 'https://github.com/actions-ecosystem/action-add-labels#inputs' },
  { slug: 'actions-ecosystem/action-remove-labels', tool: 'gh', instead: '`gh issue edit --remove-label` or `gh pr edit --remove-label`', source: 'https://github.com/actions-ecosystem/action-remove-labels#inputs' },
  { slug: 'sergeysova/jq-action', tool: 'jq', instead: '`jq`', source: 'https://github.com/sergeysova/jq-action#readme' },
  { slug: 'mikefarah/yq', tool: 'yq', instead: '`yq` (v4, the same program)', source: 'https://github.com/mikefarah/yq#github-action' },
  { slug: 'addnab/docker-run-action', tool: 'docker', instead: '`docker run`', source: 'https://github.com/addnab/docker-run-action#readme' },
];

export function superfluousAction(slug: string): SuperfluousAction | undefined {
  return SUPERFLUOUS_ACTIONS.find((a) => a.slug === slug);
}

/** The hosted image family a `runs-on` label names, or undefined (self-hosted, custom, unread). */
export function runnerImage(label: string): RunnerImage | undefined {
  const wanted = label.trim().toLowerCase();
  return RUNNER_IMAGES.find((image) => image.labels.includes(wanted));
}

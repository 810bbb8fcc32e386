/**
 * Official container images that ship without git. A job with `container:` runs its steps, `actions/checkout`
 * included, inside that container; when git 2.18 or later is not on the PATH there, actions/checkout downloads
 * the files through the REST API instead of cloning ("If Git 2.18 or higher is not in your PATH, falls back to
 * the REST API to download the files", https://github.com/actions/checkout#readme): no `.git` directory is
 * made, so no credential is written into a git configuration.
 *
 * Each entry names the Docker Hub repository (`library/<name>`, as `debian`, `docker.io/library/debian` and
 * `library/debian` all name it), the tags it covers, and where the image's contents were read. Only images whose
 * build installs no git are listed; the full `python`, `node`, `golang` and `buildpack-deps` images install it
 * (they build on `buildpack-deps:*-scm`), and an image not listed is taken to have it.
 */
export interface GitlessImage {
  /** The Docker Hub official image (`library/<name>`). */
  name: string;
  /** Which tags: every tag, or only tags containing one of these variant words (`slim`, `alpine`). */
  tags: 'all' | readonly string[];
  /** Where the image's contents are defined. */
  source: string;
}

export const GITLESS_IMAGES: readonly GitlessImage[] = [
  { name: 'debian', tags: 'all', source: 'https://github.com/debuerreotype/docker-debian-artifacts (a debootstrap minbase root file system; git is not in it)' },
  { name: 'ubuntu', tags: 'all', source: 'https://git.launchpad.net/cloud-images/+oci/ubuntu-base (the minimal ubuntu-base root file system; git is not in it)' },
  { name: 'alpine', tags: 'all', source: 'https://github.com/alpinelinux/docker-alpine (alpine-baselayout, busybox, apk-tools and musl only)' },
  { name: 'busybox', tags: 'all', source: 'https://github.com/docker-library/busybox (a single busybox binary)' },
  { name: 'fedora', tags: 'all', source: 'https://pagure.io/fedora-kickstarts/blob/main/f/fedora-container-base.ks (the container base package set has no git)' },
  { name: 'almalinux', tags: 'all', source: 'https://github.com/AlmaLinux/docker-images (the minimal container package set has no git)' },
  { name: 'rockylinux', tags: 'all', source: 'https://github.com/rocky-linux/sig-cloud-instance-images (the container kickstart has no git)' },
  { name: 'amazonlinux', tags: 'all', source: 'https://github.com/amazonlinux/container-images (the container package set has no git)' },
  { name: 'python', tags: ['slim', 'alpine'], source: 'https://github.com/docker-library/python (slim-*/Dockerfile installs ca-certificates, netbase and tzdata on debian:*-slim; alpine*/Dockerfile removes its build dependencies)' },
  { name: 'node', tags: ['slim', 'alpine'], source: 'https://github.com/nodejs/docker-node (*-slim/Dockerfile on debian:*-slim and alpine*/Dockerfile purge what they install to fetch node)' },
];

/**
 * The entry for a container image reference (`debian:stable`, `docker.io/library/ubuntu:24.04@sha256:...`,
 * `python:3.12-slim`), or null: another registry or namespace, an expression, or an image not listed.
 */
export function gitlessImage(reference: string): GitlessImage | null {
  const ref = reference.trim().toLowerCase().replace(/^docker:\/\//, '');
  if (ref === '' || ref.includes('${{')) return null;
  const match = /^(?:(?:docker\.io|index\.docker\.io|registry-1\.docker\.io)\/)?(?:library\/)?([a-z0-9]+(?:[._-][a-z0-9]+)*)(?::([\w][\w.-]{0,127}))?(?:@sha256:[0-9a-f]{64})?$/.exec(ref);
  if (match === null) return null;
  const name = match[1] as string;
  const tag = match[2] ?? 'latest';
  const entry = GITLESS_IMAGES.find((image) => image.name === name);
  if (entry === undefined) return null;
  if (entry.tags === 'all') return entry;
  // `3.12-slim`, `slim-bookworm`, `20-alpine3.20`: a word of the tag names the variant.
  return entry.tags.some((variant) => tag.split('-').some((word) => word.startsWith(variant))) ? entry : null;
}

/**
 * Inputs of actions that run the container image they name on the runner's Docker: a tag there is code a registry
 * account can change, as in a `docker://` step. Each entry names the inputs and says, in words, how the action runs
 * the image. Sources: each action's `action.yml` and README.
 */
export interface ImageInput {
  /** The inputs that name an image. */
  inputs: readonly string[];
  /** How the action runs it, for a finding's description. */
  runs: string;
}

const KIND_NODE = "kind runs it as the cluster's node container, privileged, on the runner's Docker, which gives it the machine";

export const IMAGE_INPUTS: Readonly<Record<string, ImageInput>> = {
  // https://github.com/helm/kind-action/blob/main/action.yml: `node_image`, "The Docker image for the cluster nodes".
  'helm/kind-action': { inputs: ['node_image'], runs: KIND_NODE },
  // https://github.com/container-tools/kind-action/blob/main/action.yml: `node_image`, as helm/kind-action (its fork).
  'container-tools/kind-action': { inputs: ['node_image'], runs: KIND_NODE },
  // https://github.com/engineerd/setup-kind/blob/main/action.yml: `image`, "Node Docker image to use for booting the cluster".
  'engineerd/setup-kind': { inputs: ['image'], runs: KIND_NODE },
  // https://github.com/addnab/docker-run-action/blob/main/action.yml: `image`, run with `docker run` and the step's `options`.
  'addnab/docker-run-action': { inputs: ['image'], runs: "the action runs it with `docker run` on the runner's Docker, with the options the step gives, which gives it the machine" },
};

import { describe, expect, it } from 'vitest';
import { hostedRunnersOnly, otherCloudEvidence, selfHosted } from '../../../../lib/engine/analysis/runners.js';
import { withScannedRepository } from '../../../../lib/engine/analysis/scanned-repository.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

function firstJob(runsOn: string) {
  const text = `on: push\njobs:\n  a:\n    runs-on: ${runsOn}\n    steps:\n      - run: make\n`;
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
  return buildWorkflow(new SourceFile('.github/workflows/x.yml', text), parsed.root).jobs[0]!;
}

describe('otherCloudEvidence', () => {
  it('reads EC2 instance types and GCE machine types in their documented shapes, as whole words', () => {
    expect(otherCloudEvidence('aws-g4dn-2xlarge')).toBe('names an AWS EC2 instance type (`g4dn.2xlarge`)');
    expect(otherCloudEvidence('aws-g5-12xlarge-cache')).toBe('names an AWS EC2 instance type (`g5.12xlarge`)');
    expect(otherCloudEvidence('g4dn.2xlarge')).toBe('names an AWS EC2 instance type (`g4dn.2xlarge`)');
    expect(otherCloudEvidence('gpu_p4d_24xlarge')).toBe('names an AWS EC2 instance type (`p4d.24xlarge`)');
    expect(otherCloudEvidence('C6I-Large')).toBe('names an AWS EC2 instance type (`c6i.large`)');
    expect(otherCloudEvidence('m5.metal')).toBe('names an AWS EC2 instance type (`m5.metal`)');
    expect(otherCloudEvidence('runner-t3-medium')).toBe('names an AWS EC2 instance type (`t3.medium`)');
    expect(otherCloudEvidence('t4g-large')).toBe('names an AWS EC2 instance type (`t4g.large`)');
    expect(otherCloudEvidence('x2iedn-xlarge')).toBe('names an AWS EC2 instance type (`x2iedn.xlarge`)');
    expect(otherCloudEvidence('n2-standard-8')).toBe('names a Google Compute Engine machine type (`n2-standard-8`)');
    expect(otherCloudEvidence('ci-c3-highcpu-22')).toBe('names a Google Compute Engine machine type (`c3-highcpu-22`)');
    expect(otherCloudEvidence('a2-highgpu-1g')).toBe('names a Google Compute Engine machine type (`a2-highgpu-1g`)');
    expect(otherCloudEvidence('a2-highgpu')).toBe('names a Google Compute Engine machine type (`a2-highgpu`)');
  });

  it('reads the clouds named as a word of the name', () => {
    expect(otherCloudEvidence('aws-general-8-plus')).toBe('names AWS (`aws`)');
    expect(otherCloudEvidence('ARM64-EC2')).toBe('names AWS (`ec2`)');
    expect(otherCloudEvidence('gcp-runners')).toBe('names Google Cloud (`gcp`)');
    expect(otherCloudEvidence('linux_gce_x86')).toBe('names Google Cloud (`gce`)');
  });

  it("reads a cloud's managed Kubernetes service as a word (an actions-runner-controller scale set in the owner's cluster), not inside a longer word", () => {
    expect(otherCloudEvidence('aks-linux-4-cores-16gb')).toBe("names Azure Kubernetes Service, the owner's own cluster (`aks`)");
    expect(otherCloudEvidence('ci-eks-x64')).toBe("names Amazon EKS, the owner's own cluster (`eks`)");
    expect(otherCloudEvidence('GKE_runners')).toBe("names Google Kubernetes Engine, the owner's own cluster (`gke`)");
    for (const name of ['tasks-runner', 'weeks-linux', 'linux-4-cores-16gb', 'azure-linux-large']) expect(otherCloudEvidence(name), name).toBeNull();
  });

  it("does not read the scanned repository's owner's own name, at the start of a label, as a cloud's (negative); another owner's scan still does", () => {
    const label = 'aws-powertools_ubuntu-latest_8-core';
    expect(withScannedRepository('aws-powertools/powertools-lambda-python', () => otherCloudEvidence(label))).toBeNull();
    expect(withScannedRepository('acme/app', () => otherCloudEvidence(label))).toBe('names AWS (`aws`)');
    expect(otherCloudEvidence(label)).toBe('names AWS (`aws`)');
    // The owner's name elsewhere in the label, or a cloud's word after it, is read as before.
    expect(withScannedRepository('aws-powertools/x', () => otherCloudEvidence('aws-powertools-ec2-large'))).toBe('names AWS (`ec2`)');
    expect(withScannedRepository('aws/x', () => otherCloudEvidence('awsome-g4dn-2xlarge'))).toBe('names an AWS EC2 instance type (`g4dn.2xlarge`)');
  });

  it("reads a data-centre GPU GitHub's hosted runners do not have, as a word; not the T4 they carry, nor a longer word", () => {
    expect(otherCloudEvidence('linux-x86-b200-8')).toBe("names a GPU GitHub's hosted runners do not have (`b200`; their GPU larger runners carry an NVIDIA T4)");
    expect(otherCloudEvidence('H100_runner')).toContain('(`h100`;');
    expect(otherCloudEvidence('gpu.mi300x')).toContain('(`mi300x`;');
    for (const name of ['gpu-t4-large', 'linux-h1000', 'xa100', 'build-v1000', 'linux-l4', 'a10-runner']) expect(otherCloudEvidence(name), name).toBeNull();
  });

  it('does not read sizes, words or chips that are no other cloud\'s machine', () => {
    for (const name of [
      'message-large', // a size after a word that is no instance family
      'spec2-xlarge', // a family-like word inside a longer word
      'mec2-runner',
      'my-ec2ish',
      'awsome-runner',
      'jaws-runner',
      'gcpu',
      'k8s-large', // letters, a digit, letters, but no EC2 family or attribute
      'e2e-large',
      'p2p-xlarge',
      'x64-large', // architectures
      'arm64-xlarge',
      'macos-m1-large', // Apple's chips
      'm4-large',
      'gpu-t4-large', // NVIDIA's T4 (GitHub's GPU larger runners)
      'macos-15-xlarge',
      'ubuntu-latest-8-cores',
      'windows-2022-large',
      'linux-x86-n2-16', // GCE-like, but not the documented machine type shape
      'n2-standard', // a general class without its vCPU count
      'm5', // a family without a size
      'c6i',
      'azure', // GitHub's hosted runners are Azure machines
      'azure-linux-8-cores',
      'gpu-runners',
      '${{ matrix.runner }}',
    ]) {
      expect(otherCloudEvidence(name), name).toBeNull();
    }
  });
});

describe('selfHosted: another cloud in a runner group or a label', () => {
  it('names the runner group before a label, and a label when the group names no cloud', () => {
    expect(selfHosted(firstJob('{ group: aws-runners, labels: [gcp-big] }'))?.how).toMatch(/^runner group `aws-runners`, which names AWS/);
    expect(selfHosted(firstJob('{ group: gpu-runners, labels: [linux, gcp-big] }'))?.how).toMatch(/^label `gcp-big`, which names Google Cloud/);
  });

  it('is not certain for a group and labels that name no cloud', () => {
    const hit = selfHosted(firstJob('{ group: gpu-runners, labels: [linux, big-box] }'));
    expect(hit?.certain).toBe(false);
    expect(hit?.how).not.toMatch(/AWS|Google/);
  });
});

describe('hostedRunnersOnly: the runner images GitHub hosts', () => {
  it('knows an image with an architecture and a Visual Studio suffix (windows-11-vs2026-arm), not a label made of other words', () => {
    for (const label of ['windows-11-vs2026-arm', 'windows-2025-vs2026', 'windows-11-arm', 'ubuntu-24.04-arm', 'macos-15-intel']) {
      expect(hostedRunnersOnly(firstJob(label)), label).toBe(true);
    }
    for (const label of ['windows-11-vs2026-arm-gpu', 'windows-11-build-arm', '[self-hosted, windows-11-vs2026-arm]']) {
      expect(hostedRunnersOnly(firstJob(label)), label).toBe(false);
    }
  });
});

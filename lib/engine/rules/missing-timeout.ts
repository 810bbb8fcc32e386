import { largerRunnerLabel, ownCloudRunner, runnerTimeLimit, selfHosted, standardHostedOnly } from '../analysis/runners.js';
import type { Job } from '../model/workflow.js';
import type { RunModel } from '../analysis/run-model/index.js';
import type { Severity } from '../types.js';
import { defineWorkflowRule } from '../rule.js';

/**
 * What a hung run of the job costs, by the runner it gets (the run model's runner facts: holdings.ts `selfHosted`,
 * runners.ts): a standard GitHub-hosted runner's minutes only (INFO); a self-hosted machine other jobs wait for, or
 * a larger runner's minutes billed at a higher rate also for public repositories (LOW, saying which).
 */
function cost(runs: RunModel, job: Job): { severity: Severity; why: string } {
  const runner = runs.job(job).runner;
  const selection = runner === null ? null : selfHosted(job);
  if (runner === 'definite' && selection !== null) {
    return { severity: 'LOW', why: `It runs on a self-hosted runner (${selection.how}): a hung run keeps that machine from the other jobs that wait for it.` };
  }
  if (selection !== null) {
    return {
      severity: 'LOW',
      why: `It runs on a ${selection.how}: a self-hosted runner, which a hung run keeps from the other jobs that wait for it, or a GitHub-hosted larger runner, whose minutes are billed at a higher rate also for public repositories.`,
    };
  }
  if (ownCloudRunner(job) !== null) {
    return { severity: 'LOW', why: "It runs on a RunsOn runner, an EC2 machine the owner's AWS account starts for the job: a hung run keeps that machine running, billed to the account, until GitHub's limit stops the job." };
  }
  const larger = largerRunnerLabel(job);
  if (larger !== null) {
    return { severity: 'LOW', why: `It runs on \`${larger}\`, a GitHub-hosted larger runner: its minutes are billed at a higher rate than a standard runner's, also for public repositories.` };
  }
  if (standardHostedOnly(job)) {
    return {
      severity: 'INFO',
      why: 'It runs on a standard GitHub-hosted runner, a fresh machine per job: a hung run wastes only its own minutes (free for public repositories, billed per minute for private ones) and holds nothing other jobs wait for.',
    };
  }
  return { severity: 'LOW', why: 'Its runner is not one the workflow shows to be a standard GitHub-hosted runner, so a hung run may hold a machine or minutes billed at a higher rate.' };
}

export default defineWorkflowRule({
  meta: {
    id: 'missing-timeout',
    category: 'BEST-PRAC-1',
    title: 'Job has no timeout',
    severity: 'LOW',
    surface: 'workflow',
    fix: { safe: false },
    description:
      "A job that runs steps has no `timeout-minutes`, so a hung or hijacked job keeps its runner (and its token) for GitHub's limit of 6 hours. INFO on a standard GitHub-hosted runner (a hung run wastes only its own minutes); LOW on a self-hosted runner (a machine other jobs wait for) or a larger runner (billed at a higher rate, also for public repositories), saying which.",
    recommendation: 'Set `timeout-minutes` on the job to a little more than its usual duration.',
  },
  create: (context) => ({
    job(job) {
      // Reusable-workflow calls take their timeouts from the called workflow's jobs.
      if (job.uses !== undefined || job.steps.length === 0) return;
      if (job.node.pairs.some((p) => p.key.value === 'timeout-minutes')) return;
      // Every step bounded: the job is too (only its setup, which GitHub runs, is left).
      if (job.steps.every((step) => step.node.pairs.some((p) => p.key.value === 'timeout-minutes'))) return;
      // A runner that ends every job sooner itself (`ubuntu-slim`: 15 minutes) already bounds it.
      if (runnerTimeLimit(job) !== null) return;
      const { severity, why } = cost(context.runs, job);
      context.report({
        node: job.key,
        severity,
        message: `Job \`${job.id}\` has no \`timeout-minutes\`; it can run for up to 6 hours (360 minutes, GitHub's limit for a job). ${why}`,
      });
    },
  }),
});

import { describe, expect, it } from 'vitest';
import { occasionsOfSet, workflowRuns } from '../../../../../lib/engine/analysis/run-model/conditions.js';
import { githubScriptOutputSettings } from '../../../../../lib/engine/analysis/script-outputs.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import type { YMap } from '../../../../../lib/engine/yaml/model.js';

function model(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  return buildWorkflow(new SourceFile('.github/workflows/w.yml', text), parsed.root as YMap);
}

/** A dispatcher: a github-script step sets `command` per event, and jobs run per command. */
function dispatcher(script: string, env = "'${{ github.event_name }}.${{ github.event.action }}'", compare = "== 'fix'"): Workflow {
  const indented = script.split('\n').map((line) => `            ${line}`).join('\n');
  return model(`on:
  issues:
    types: [opened, reopened]
  issue_comment:
    types: [created]
  pull_request:
    types: [opened]
jobs:
  dispatch:
    runs-on: ubuntu-latest
    outputs:
      command: \${{ steps.extract.outputs.command }}
    steps:
      - id: extract
        uses: actions/github-script@v7
        env:
          EVENT_TYPE: ${env}
          REQUEST: \${{ github.event.comment.body || github.event.issue.body }}
        with:
          script: |
${indented}
  fix:
    needs: dispatch
    if: \${{ needs.dispatch.outputs.command ${compare} }}
    runs-on: ubuntu-latest
    steps:
      - run: echo fix
  triage:
    needs: dispatch
    if: needs.dispatch.outputs.command == 'triage'
    runs-on: ubuntu-latest
    steps:
      - run: echo triage
`);
}

function events(workflow: Workflow, id: string): string[] {
  const runs = workflowRuns(workflow);
  const job = workflow.jobs.find((j) => j.id === id)!;
  return [...new Set(occasionsOfSet(runs.jobs.get(job)!).map((o) => `${o.event}.${o.action}`))].sort();
}

const CHAIN = `const eventType = process.env.EVENT_TYPE;
const request = process.env.REQUEST;
core.setOutput('request', request);
if (eventType === 'pull_request.opened') {
  core.setOutput('command', 'review');
} else if (['issues.opened', 'issues.reopened'].includes(eventType)) {
  core.setOutput('command', 'triage');
} else if (request.startsWith("@bot /triage")) {
  core.setOutput('command', 'triage');
} else if (request.startsWith("@bot /fix")) {
  core.setOutput('command', 'fix');
  const context = request.replace(/^@bot \\/fix/, '').trim();
} else {
  core.setOutput('command', 'fallthrough');
}`;

describe('occasions of a github-script output set per event', () => {
  it('reads the literals an if / else if chain sets, each under the earlier conditions false', () => {
    const settings = githubScriptOutputSettings(CHAIN, 'command');
    expect(settings?.map((s) => s.value)).toEqual(['review', 'triage', 'triage', 'fix', 'fallthrough']);
    expect(settings?.[0]?.when).toEqual([{ k: 'in', env: 'EVENT_TYPE', values: ['pull_request.opened'], negated: false }]);
    // A value that is no literal, or a name that is not, leaves the output unknown.
    expect(githubScriptOutputSettings(`core.setOutput('command', process.env.X);`, 'command')).toBeNull();
    expect(githubScriptOutputSettings(`const n = 'command'; core.setOutput(n, 'fix');`, 'command')).toBeNull();
    expect(githubScriptOutputSettings(`if (process.env.E === 'issues') core.setOutput('command', '\${{ github.event.issue.title }}');`, 'command')).toBeNull();
  });

  it('a job that needs the command `fix` runs only on the occasions the event branches leave to the comments', () => {
    const workflow = dispatcher(CHAIN);
    expect(events(workflow, 'fix')).toEqual(['issue_comment.created']);
    expect(events(workflow, 'triage')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened']);
  });

  it('`!=` keeps the job on every occasion but those where the output can only be that literal... which is none: it may be unset', () => {
    expect(events(dispatcher(CHAIN, undefined, "!= 'fix'"), 'fix')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened', 'pull_request.opened']);
    // `!=` against the branches: `fix` set only where the event is not an issue's.
    const negated = `const e = process.env.EVENT_TYPE;
if (e !== 'issue_comment.created') {
  core.setOutput('command', 'triage');
} else {
  core.setOutput('command', 'fix');
}`;
    expect(events(dispatcher(negated), 'fix')).toEqual(['issue_comment.created']);
    expect(events(dispatcher(negated), 'triage')).toEqual(['issues.opened', 'issues.reopened', 'pull_request.opened']);
  });

  it('an unknown condition before the event branches lets every literal through on every occasion', () => {
    const first = `const eventType = process.env.EVENT_TYPE;
const request = process.env.REQUEST;
if (request.startsWith('@bot /fix')) {
  core.setOutput('command', 'fix');
} else if (eventType === 'issues.opened') {
  core.setOutput('command', 'triage');
}`;
    expect(events(dispatcher(first), 'fix')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened', 'pull_request.opened']);
    // A later branch's own known condition still restricts it.
    expect(events(dispatcher(first), 'triage')).toEqual(['issues.opened']);
  });

  it('a variable the step does not bind to the event and activity is unknown', () => {
    expect(events(dispatcher(CHAIN, "'${{ github.event.comment.body }}'"), 'fix')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened', 'pull_request.opened']);
    // Reassigned, or read from elsewhere: unknown too.
    const reassigned = CHAIN.replace('const eventType', 'let eventType') + '\neventType = request;';
    expect(events(dispatcher(reassigned), 'fix')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened', 'pull_request.opened']);
    expect(events(dispatcher(CHAIN.replace("core.setOutput('request', request);", "require('./x.js')(core);")), 'fix')).toEqual(['issue_comment.created', 'issues.opened', 'issues.reopened', 'pull_request.opened']);
  });
});

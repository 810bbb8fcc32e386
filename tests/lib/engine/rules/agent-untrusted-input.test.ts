import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'agent-untrusted-input';

describe(RULE, () => {
  it('reports an agent on issues with a write token as HIGH, at its uses:', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
          types: [opened]
      permissions:
        contents: write
        issues: write
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
    `);
    expect(positions(findings)).toEqual(['11:15 HIGH']);
    expect(findings[0]?.description).toContain('Gemini CLI runs on `issues`');
    expect(findings[0]?.description).toContain('contents, issues');
    expect(findings[0]?.description).toContain('GEMINI_API_KEY');
  });

  it('is MEDIUM when the job only holds secrets or conversation scopes', () => {
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      permissions:
        issues: write
      jobs:
        reply:
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with:
                openai-api-key: \${{ secrets.OPENAI_API_KEY }}
    `))).toEqual(['8:15 MEDIUM']);
  });

  it('reports claude-code-action only when allowed_non_write_users lets outsiders start it', () => {
    const workflow = (extra: string) => yaml`
      on: issue_comment
      permissions:
        contents: write
      jobs:
        claude:
          runs-on: ubuntu-latest
          steps:
            - uses: anthropics/claude-code-action@v1
              with:
                anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}${extra}
    `;
    expect(scanWith(RULE, workflow(''))).toEqual([]);
    const findings = scanWith(RULE, workflow("\n                allowed_non_write_users: '*'"));
    expect(positions(findings)).toEqual(['8:15 HIGH']);
    expect(findings[0]?.description).toContain('allowed_non_write_users');
  });

  it('does not report guarded, maintainer-only, powerless or non-agent steps', () => {
    expect(scanWith(RULE, yaml`
      on:
        issue_comment:
        workflow_dispatch:
      permissions:
        contents: write
      jobs:
        guarded:
          if: contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with: { openai-api-key: '\${{ secrets.OPENAI_API_KEY }}' }
        readonly:
          permissions: { contents: read }
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
        other:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with: { github-token: '\${{ secrets.BOT_TOKEN }}' }
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: [push, workflow_dispatch]
      permissions: write-all
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with: { openai-api-key: '\${{ secrets.OPENAI_API_KEY }}' }
    `)).toEqual([]);
  });

  it('reports the unguarded way in when only some events are guarded', () => {
    expect(positions(scanWith(RULE, yaml`
      on:
        issues:
        issue_comment:
      permissions: { contents: read, id-token: write }
      jobs:
        dedup:
          if: github.event_name == 'issues' || (github.event_name == 'issue_comment' && github.event.comment.author_association == 'OWNER')
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
    `))).toEqual(['10:15 MEDIUM']);
  });

  it('is LOW when the tools of the agent are restricted to an allowlist', () => {
    const findings = scanWith(RULE, yaml`
      on: issues
      permissions: { contents: write }
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                settings: |
                  { "tools": { "core": ["read_file", "run_shell_command(echo)"] } }
    `);
    expect(positions(findings)).toEqual(['7:15 LOW']);
    expect(findings[0]?.description).toContain('allowlist');
  });
});

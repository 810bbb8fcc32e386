import type { RepositoryModel } from '../model/repository.js';
import type { Job, Step } from '../model/workflow.js';
import { commandName, logicalLines, pipelines } from '../shell.js';
import { getText } from '../yaml/model.js';
import { calledLocalWorkflow } from './callers.js';

/**
 * Steps and jobs that only notify: they post (or edit, or look up) a comment or a review on an issue or pull
 * request (`comment`), set a commit status or a check run (`status`), or add or remove labels with the run's own
 * token (`label`), and do nothing else. A value that only steers one of them (the pull request commented on or
 * labelled, the label, the commit marked, whether the job runs at all) decides a comment's target, a label or a
 * status's commit, nothing that runs or is published. A label added with the run's `GITHUB_TOKEN` starts no
 * workflow (GitHub does not trigger runs from that token's events); one added with another token can start a
 * `labeled` workflow, a label gate among them, so such a step is no notice.
 */
export type Notice = 'comment' | 'status' | 'label';

/** Actions that post or edit comments: a file or output given to them becomes a comment's body or its target. */
export const COMMENT_ACTIONS: ReadonlySet<string> = new Set([
  'marocchino/sticky-pull-request-comment',
  'peter-evans/create-or-update-comment',
  'peter-evans/find-comment',
  'thollander/actions-comment-pull-request',
  'mshick/add-pr-comment',
  'edumserrano/find-create-or-update-comment',
  'kanga333/comment-hider',
  'actions-cool/maintain-one-comment',
  'phulsechinmay/rewritable-pr-comment',
  'unsplash/comment-on-pr',
]);

/** Actions that set a commit status or a check run. */
const STATUS_ACTIONS: ReadonlySet<string> = new Set([
  'myrotvorets/set-commit-status-action',
  'ouzi-dev/commit-status-updater',
  'sibz/github-status-action',
  'guibranco/github-status-action-v2',
  'louisbrunner/checks-action',
  'niteoweb/pull_request_status_action',
]);

/** An action named for what it posts (`org/github/actions/comment-pr`, `org/set-commit-status`), by its last path segment or its repository. */
const COMMENT_NAME = /(^|[-_])(comment|comments)([-_]|$)/;
const STATUS_NAME = /(^|[-_])(commit[-_]status|set[-_]status|status[-_]check|github[-_]status|check[-_]run|checks?[-_]action)([-_]|$)|^(commit[-_]?)?status$/;

/** github-script API calls that post, edit, delete or read comments, reviews and reactions. */
const COMMENT_CALLS = /^(createComment|updateComment|deleteComment|listComments|getComment|createReview|createReviewComment|updateReview|listReviews|createForIssue|createForIssueComment)$/;
/** github-script API calls that set commit statuses or check runs, or read them. */
const STATUS_CALLS = /^(createCommitStatus|listCommitStatusesForRef|getCombinedStatusForRef|create|update|listForRef|listForSuite)$/;
/** Any call to the GitHub API from github-script, with its family (`issues`, `repos`, `checks` ...) and method. */
const API_CALLS = /\bgithub\.(?:rest\.)?(\w+)\.(\w+)\s*\(|\bgithub\.(graphql|request)\s*\(/g;
/**
 * What else a github-script script may do: run a process, load a module, write a file or the job's environment,
 * call another client. Loading `fs` or `path` to read a file (the number of the pull request to comment on) is
 * not more: what it writes is caught by name.
 */
const SCRIPT_DOES_MORE = /\bexec\b|child_process|\brequire\s*\(|\bimport\s*\(|\bfetch\s*\(|writeFile|appendFile|createWriteStream|\bcopyFile|\brename(?:Sync)?\s*\(|\bunlink|\brmSync|exportVariable|addPath|GITHUB_ENV|GITHUB_PATH|getOctokit|new\s+Octokit/;
/** `require('fs')`, `require("node:path")`: modules a script loads to read a file. */
const READING_MODULES = /\brequire\s*\(\s*(['"])(?:node:)?(?:fs|path)(?:\/promises)?\1\s*\)/g;

/** True when a github-script script does more than read files and call the API (`SCRIPT_DOES_MORE`), or evaluates text as code. */
export function scriptDoesMore(script: string): boolean {
  return SCRIPT_DOES_MORE.test(script.replace(READING_MODULES, '')) || /\beval\s*\(|\bnew\s+Function\s*\(|\bvm\./.test(script);
}

/** Actions that add or remove the labels they are given. */
const LABEL_ACTIONS: ReadonlySet<string> = new Set([
  'actions-ecosystem/action-add-labels',
  'actions-ecosystem/action-remove-labels',
  'andymckay/labeler',
  'buildsville/add-remove-label',
  'christianvuerings/add-labels',
  'mondeja/remove-labels-gh-action',
]);
const LABEL_NAME = /(^|[-_])(add|remove|set)[-_](remove[-_])?labels?([-_]|$)/;
/** github-script API calls that add, remove or read an issue's or pull request's labels. */
const LABEL_CALLS = /^(addLabels|removeLabel|setLabels|removeAllLabels|listLabelsOnIssue|getLabel)$/;
/** `gh pr edit <n> --add-label x --remove-label y` with nothing else edited; `gh api .../labels`. */
const LABEL_COMMAND = /^gh\s+(?:pr|issue)\s+edit\b|^gh\s+api\b[^\n]{0,300}\/labels\b/;
const LABEL_FLAGS = /^--(?:add-label|remove-label|repo|R)(?:=|$)|^-R$/;
/** Inputs and variables that hand a step a token. */
const TOKEN_KEYS = new Set(['github-token', 'github_token', 'token', 'repo-token', 'repo_token', 'GH_TOKEN', 'GITHUB_TOKEN']);
/** The run's own token: its events start no workflow. */
const RUN_TOKEN = /^\s*\$\{\{\s*(?:secrets\.GITHUB_TOKEN|github\.token)\s*\}\}\s*$/i;

/** Shell commands that post a comment or a review, or a status through the API. */
const COMMENT_COMMAND = /^gh\s+(pr|issue)\s+(comment|review)\b|^gh\s+api\b[^\n]{0,300}\/comments\b/;
const STATUS_COMMAND = /^gh\s+api\b[^\n]{0,300}\/(statuses|check-runs)\b/;
/**
 * `curl` to the REST API of GitHub (`https://api.github.com/repos/...`, `$GITHUB_API_URL/repos/...`): the request
 * posts a comment or sets a status as `gh api` does, when it writes no file and reads no configuration
 * (`-o`, `-O`, `-D`, `-K`, `--output`, `--config`).
 */
const CURL_API = /^curl\s(?=[^\n]{0,600}(?:api\.github\.com|\$\{?GITHUB_API_URL\}?|github\.api_url\s*\}\})\/repos\/)/;
const CURL_WRITES = /\s(?:-[a-zA-Z]*[oOKD]|--(?:output|remote-name|remote-name-all|config|dump-header|trace|trace-ascii|create-dirs|output-dir))\b/;

/** What a `curl` call to the API posts: a comment (`/issues/<n>/comments`), a status or check run, or nothing known. */
function curlNotice(text: string): Notice | null {
  if (!CURL_API.test(text) || CURL_WRITES.test(text)) return null;
  if (/\/(?:issues|pulls)\/[^\s/'"]+\/(?:comments|reviews)\b/.test(text)) return 'comment';
  if (/\/(?:statuses\/[^\s/'"]+|check-runs)\b/.test(text)) return 'status';
  return null;
}
/** Commands that only print or set shell state. */
const INERT_COMMANDS = new Set(['echo', 'printf', 'true', ':', 'exit', 'set']);

/** What a step posts, when that is all it does (null: it does something else, or nothing the engine knows). */
export function stepNotice(step: Step): Notice | null {
  const ref = step.usesRef;
  if (ref?.kind === 'repository') {
    if (ref.slug === 'actions/github-script') {
      const notice = scriptNotice(getText(step.with, 'script') ?? '');
      return notice === 'label' && !runToken(step) ? null : notice;
    }
    if (COMMENT_ACTIONS.has(ref.slug)) return 'comment';
    if (STATUS_ACTIONS.has(ref.slug)) return 'status';
    const name = (ref.path === '' ? ref.repo : (ref.path.split('/').at(-1) ?? '')).toLowerCase();
    if (STATUS_NAME.test(name)) return 'status';
    if (COMMENT_NAME.test(name)) return 'comment';
    if ((LABEL_ACTIONS.has(ref.slug) || LABEL_NAME.test(name)) && runToken(step)) return 'label';
    return null;
  }
  if (typeof step.run?.value !== 'string') return null;
  let found: Notice | null = null;
  for (const line of logicalLines(step.run.value)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const text = command.text.trim();
        const curl = commandName(text) === 'curl' ? curlNotice(text) : null;
        if (COMMENT_COMMAND.test(text) || curl === 'comment') found ??= 'comment';
        else if (STATUS_COMMAND.test(text) || curl === 'status') found ??= 'status';
        else if (labelCommand(text) && runToken(step)) found ??= 'label';
        else if (!INERT_COMMANDS.has(commandName(text) ?? '') || /\$\(|`/.test(text)) return null;
      }
    }
  }
  return found;
}

/** A github-script script whose every API call posts or reads comments, or statuses and checks. */
function scriptNotice(script: string): Notice | null {
  if (scriptDoesMore(script)) return null;
  const calls = [...script.matchAll(API_CALLS)];
  if (calls.length === 0) return null;
  let found: Notice | null = null;
  for (const call of calls) {
    const [family, method] = [call[1] ?? '', call[2] ?? ''];
    if ((family === 'issues' || family === 'pulls' || family === 'reactions') && COMMENT_CALLS.test(method)) found = found === 'label' ? 'comment' : (found ?? 'comment');
    else if (family === 'issues' && LABEL_CALLS.test(method)) found ??= 'label';
    else if ((family === 'repos' || family === 'checks') && STATUS_CALLS.test(method) && (family === 'checks' || /Status/.test(method))) found = found === 'comment' ? 'comment' : 'status';
    else if (/^(get|list)/.test(method) && family !== '') continue;
    else return null;
  }
  return found;
}

/** `gh pr edit 12 --add-label x` that edits nothing but labels, or `gh api .../labels`. */
export function labelCommand(text: string): boolean {
  if (!LABEL_COMMAND.test(text)) return false;
  if (/^gh\s+api\b/.test(text)) return true;
  // Every flag a label flag (`--add-label`, `--remove-label`, `--repo`): `--title` or `--body` edits text.
  return text.split(/\s+/).filter((w) => w.startsWith('-')).every((w) => LABEL_FLAGS.test(w));
}

/**
 * True when the step acts with the run's own `GITHUB_TOKEN` (a token input or `GH_TOKEN` / `GITHUB_TOKEN` in its,
 * its job's or its workflow's `env:` is the run's token, or none is given): what it does starts no workflow.
 */
export function runToken(step: Step): boolean {
  return givenToken(step) !== 'other';
}

/**
 * The token a step's commands act with, as given to it (a token input, or `GH_TOKEN` / `GITHUB_TOKEN` in its, its
 * job's or its workflow's `env:`): `run` when every one given is the run's own `GITHUB_TOKEN`, `other` when one is
 * another credential (a stored secret), null when none is given (`gh` then has no token on a hosted runner).
 */
export function givenToken(step: Step): 'run' | 'other' | null {
  const values: string[] = [];
  const collect = (node: Parameters<typeof getText>[0]) => {
    if (node?.kind !== 'map') return;
    for (const pair of node.pairs) if (TOKEN_KEYS.has(String(pair.key.value)) && pair.value.kind === 'scalar') values.push(String(pair.value.value ?? ''));
  };
  collect(step.with);
  collect(step.env);
  if (step.job !== null) collect(step.job.env);
  if (step.owner.kind === 'workflow') collect(step.owner.env);
  if (values.length === 0) return null;
  return values.every((v) => RUN_TOKEN.test(v)) ? 'run' : 'other';
}

/** The label sink a step is, in words: the action, or the `gh pr edit` its script runs. */
export function labelSink(step: Step): string {
  const ref = step.usesRef;
  if (ref?.kind === 'repository') return ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`;
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  const edit = /\bgh\s+(pr|issue)\s+edit\b[^\n;|&]*?(--(?:add|remove)-label)\b/.exec(script);
  if (edit !== null) return `\`gh ${edit[1] ?? 'pr'} edit <number> ${edit[2] ?? '--add-label'}\``;
  return /\bgh\s+api\b/.test(script) ? '`gh api .../labels`' : 'a script';
}

/** A literal string (quoted, or a template with no `${...}`) at the start of `text`. */
const LITERAL = /^\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`$]*`)/;
/** github-script calls that post or edit the text of a comment or review. */
const POSTING_CALLS = /\bgithub\.(?:rest\.)?(?:issues|pulls)\.(?:createComment|updateComment|createReview|createReviewComment|updateReview|submitReview)\s*\(/;

/**
 * True when a step that posts comments (an `actions/github-script` step, or `gh pr|issue comment` / `gh api
 * .../comments` in `run:`) posts a fixed text: every `body` it gives is a literal (in github-script, `body: '...'`,
 * or `body` shorthand for a `const body = '...'`; for gh, `--body`/`-b` with a literal that expands nothing, never
 * `--body-file`). What it reads can then choose only where the comment goes, not what it says.
 */
export function fixedCommentBody(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind === 'repository' && ref.slug === 'actions/github-script') {
    const script = getText(step.with, 'script') ?? '';
    if (!POSTING_CALLS.test(script)) return false;
    let bodies = 0;
    for (const m of script.matchAll(/(?<![.\w$])body\b(\s*:)?/g)) {
      const rest = script.slice((m.index ?? 0) + m[0].length);
      if (m[1] !== undefined) {
        bodies++;
        if (!LITERAL.test(rest)) return false;
      } else if (/^\s*[,}]/.test(rest)) {
        // Shorthand `{ body }`: one `const body = '...'` and nothing else assigned to it.
        bodies++;
        const assigned = [...script.matchAll(/(?<![.\w$])body\s*=(?!=)/g)];
        const declared = /\bconst\s+body\s*=(.*)/.exec(script);
        if (assigned.length !== 1 || declared === null || !LITERAL.test(declared[1] ?? '')) return false;
      }
    }
    return bodies > 0;
  }
  if (typeof step.run?.value !== 'string') return false;
  let posts = 0;
  for (const line of logicalLines(step.run.value)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const text = command.text.trim();
        if (!COMMENT_COMMAND.test(text)) continue;
        posts++;
        if (/\s(?:--body-file|-F|--input)\b/.test(text)) return false;
        const body = /\s(?:--body|-b|-f\s+body)[=\s]+((?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+))/.exec(` ${text}`);
        if (body === null || /[$`]/.test(body[1] ?? '') || /\$\(|`/.test(text.replace(/\$\(\s*(?:cat|head|jq)\b[^)]*\)/g, ''))) return false;
      }
    }
  }
  return posts > 0;
}

/** The comment sink a step is, in words: `actions/github-script`, or the `gh pr comment` its script runs. */
export function commentSink(step: Step): string {
  const ref = step.usesRef;
  if (ref?.kind === 'repository') return ref.slug;
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  const command = /\bgh\s+(?:pr|issue)\s+(?:comment|review)\b|\bgh\s+api\b/.exec(script)?.[0];
  return command === undefined ? 'a script' : `\`${command.replace(/\s+/g, ' ')}\``;
}

/** A step that prints or sets a variable only (`echo "NAME=x" >> "$GITHUB_ENV"`): nothing of note. */
function inertStep(step: Step): boolean {
  if (typeof step.run?.value !== 'string') return false;
  return logicalLines(step.run.value).every((line) =>
    pipelines(line).every((p) => p.commands.every((c) => INERT_COMMANDS.has(commandName(c.text.trim()) ?? '') && !/\$\(|`/.test(c.text))),
  );
}

/**
 * What a job posts, when that is all it does: every step posts a comment or a status (or only prints), or, for a
 * job that calls a reusable workflow of the repository, every job of that workflow does. The secrets it is given
 * go to those posts only. Null when some step does anything else, or the called workflow is not the scan's.
 */
export function jobNotices(job: Job, repository: RepositoryModel, depth = 0): Notice[] | null {
  if (job.uses !== undefined) {
    const called = calledLocalWorkflow(repository, job);
    if (called === undefined || depth > 3 || called.jobs.length === 0) return null;
    const all = new Set<Notice>();
    for (const inner of called.jobs) {
      const found = jobNotices(inner, repository, depth + 1);
      if (found === null) return null;
      for (const n of found) all.add(n);
    }
    return [...all];
  }
  const all = new Set<Notice>();
  for (const step of job.steps) {
    const notice = stepNotice(step);
    if (notice !== null) all.add(notice);
    else if (!inertStep(step)) return null;
  }
  return all.size === 0 ? null : [...all];
}

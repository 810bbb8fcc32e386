import * as v from 'valibot';
import { MAX_OPTION_ENTRIES, MAX_OPTION_ENTRY_LENGTH, OptionsObject, RULE_OPTIONS } from '../engine/rule-options.js';

/**
 * The shapes of `api-spec.md`, once: the endpoints validate with them and `GET /api/openapi.json` is
 * generated from them. Request schemas are strict (unknown keys are a 400); response schemas document what
 * the handlers return (their types are checked at compile time).
 */

const SEVERITY = ['HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;

export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
export const RuleId = v.pipe(
  v.string(),
  v.description('A rule id of the catalog (`GET /api/rules`); any other value is rejected.'),
  v.examples(['script-injection']),
);
const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 timestamp'));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

// Path parameters (they arrive as query parameters on Vercel). A value that does not fit names nothing: 404.
export const RepoPath = v.object({ repo_id: v.pipe(Uuid, v.description('Service-side repository id (`id` in `GET /api/repos`).')) });
export const RulePath = v.object({ rule_id: RuleId });
export const RepoRulePath = v.object({ ...RepoPath.entries, ...RulePath.entries });
export const FINGERPRINT = /^(?:path-)?[0-9a-f]{6,64}$/;
export const RepoFingerprintPath = v.object({
  ...RepoPath.entries,
  fingerprint: v.pipe(
    v.string(),
    v.regex(FINGERPRINT),
    v.description('A finding’s `fingerprint` (hexadecimal), or an attack path’s (`fingerprint` of a combination, `path-` and hexadecimal).'),
  ),
});
export const ScanPath = v.object({ scan_id: v.pipe(Uuid, v.description('A `scan_id` of `POST /api/scan` or of a repository\'s scan list.')) });
export const InstallationPath = v.object({
  installation_id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,15}$/),
    v.transform(Number),
    v.safeInteger(),
    v.description('GitHub App installation id (`installation_id` of `GET /api/github/callback`).'),
  ),
});

// Request bodies and query strings.
const RuleSeverity = v.pipe(
  v.nullable(v.picklist(SEVERITY, `must be one of ${SEVERITY.join(', ')}, or null for the rule's own severity`)),
  v.description(
    "Every finding of the rule is reported, counted, gated and read by the attack paths at this severity, as `rules.<id>.severity` in the CLI's `.chainbreaker.yml` does. " +
      "In `PUT`: absent keeps the stored severity, null clears it (the rule's own severity). A repository's override wins over the global setting.",
  ),
  v.examples(['LOW']),
);
export const RuleStateBody = v.strictObject({ enabled: v.boolean('must be a boolean'), severity: v.optional(RuleSeverity) });
export type RuleStateBody = v.InferOutput<typeof RuleStateBody>;

/** The name of a rule's options schema in `components.schemas`: `forbidden-uses` -> `ForbiddenUsesOptions`. */
const optionsSchemaName = (ruleId: string) => `${ruleId.replace(/(?:^|-)([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Options`;

/** The options schema of every rule that takes options, by its name in `components.schemas`. */
export const RULE_OPTIONS_SCHEMAS: Readonly<Record<string, (typeof RULE_OPTIONS)[string]>> = Object.fromEntries(
  Object.entries(RULE_OPTIONS).map(([id, schema]) => [optionsSchemaName(id), schema]),
);

const RuleOptions = v.pipe(
  OptionsObject,
  v.description(
    `The rule's options, checked against the rule's own schema (${Object.keys(RULE_OPTIONS)
      .map((id) => `\`${id}\`: \`${optionsSchemaName(id)}\``)
      .join(', ')} in \`components.schemas\`; other rules take none). An unknown option or a value the schema rejects is a 400. ` +
      `Each list holds at most ${MAX_OPTION_ENTRIES} entries of at most ${MAX_OPTION_ENTRY_LENGTH} characters. ` +
      "In `PUT`: absent keeps the stored options, `{}` clears them (the rule's defaults), an object replaces them. The keys are those of `rules.<id>.options` in the CLI's `.chainbreaker.yml`.",
  ),
  v.examples([{ deny: ['docker://*'] }]),
);

/** `PUT /api/rule-settings/{rule_id}`: the global preference, and the rule's options when it takes some. */
export const RuleSettingBody = v.strictObject({ enabled: v.boolean('must be a boolean'), options: v.optional(RuleOptions), severity: v.optional(RuleSeverity) });
export type RuleSettingBody = v.InferOutput<typeof RuleSettingBody>;

export const ScanBody = v.strictObject({
  repo_id: Uuid,
  ruleset: v.optional(v.picklist(['all', 'owasp'], 'must be all or owasp'), 'all'),
});
export type ScanBody = v.InferOutput<typeof ScanBody>;

export const CallbackQuery = v.object({
  installation_id: v.pipe(
    v.string('is required'),
    v.regex(/^[1-9]\d{0,15}$/, 'must be a positive integer'),
    v.transform(Number),
    v.safeInteger('must be a safe integer'),
  ),
});

export const MAX_SCANS_PAGE = 100;
export const ScansQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9]\d{0,2}$/, `must be an integer from 1 to ${MAX_SCANS_PAGE}`),
      v.transform(Number),
      v.maxValue(MAX_SCANS_PAGE, `must be an integer from 1 to ${MAX_SCANS_PAGE}`),
      v.description(`Scans per page, 1 to ${MAX_SCANS_PAGE} (default 20).`),
    ),
    '20',
  ),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9]\d{0,15}$/, 'must be the next_cursor of a previous page'),
      v.transform(Number),
      v.safeInteger('must be the next_cursor of a previous page'),
      v.description('`next_cursor` of the previous page; absent for the newest scans.'),
    ),
  ),
});

export const DISMISSAL_REASONS = ['false_positive', 'accepted_risk', 'wont_fix'] as const;
export const MAX_DISMISSAL_COMMENT = 1000;
const DismissalReason = v.pipe(v.picklist(DISMISSAL_REASONS, 'must be false_positive, accepted_risk or wont_fix'), v.description('Why: a false positive, a risk the team accepts, or a problem it will not fix.'));
const DismissalKind = v.pipe(v.picklist(['finding', 'attack_path'], 'must be finding or attack_path'), v.description('What the fingerprint names (default `finding`).'));
export const DismissalBody = v.strictObject({
  reason: DismissalReason,
  comment: v.optional(v.pipe(v.string('must be a string'), v.maxLength(MAX_DISMISSAL_COMMENT, `must be at most ${MAX_DISMISSAL_COMMENT} characters`)), ''),
  kind: v.optional(DismissalKind, 'finding'),
});
export type DismissalBody = v.InferOutput<typeof DismissalBody>;

// Responses.
export const HealthResponse = v.object({ status: v.literal('ok') });

export const Rule = v.object({
  id: v.string(),
  category: v.string(),
  title: v.string(),
  default_severity: v.picklist(SEVERITY),
  surface: v.picklist(['workflow', 'repo-settings']),
  description: v.string(),
  doc_url: v.pipe(v.string(), v.description('Relative path to the rule documentation')),
  pedantic: v.optional(
    v.pipe(v.literal(true), v.description('A hygiene rule (no attack behind it, INFO or LOW): it runs like every rule unless a preference turns it off, and never takes part in an attack path')),
  ),
});
export const RulesResponse = v.object({ rules: v.array(Rule) });

export const RuleState = v.object({ rule_id: v.string(), enabled: v.boolean(), updated_at: Timestamp });
export type RuleState = v.InferOutput<typeof RuleState>;
const StoredSeverity = v.pipe(v.picklist(SEVERITY), v.description('The severity set for the rule (no key: the rule\'s own).'));
export const RuleSetting = v.object({ ...RuleState.entries, options: v.optional(RuleOptions), severity: v.optional(StoredSeverity) });
export const RuleSettingsResponse = v.object({ settings: v.array(RuleSetting) });
export const RuleOverride = v.object({ ...RuleState.entries, severity: v.optional(StoredSeverity) });
export const RuleOverridesResponse = v.object({ overrides: v.array(RuleOverride) });

export const Repository = v.object({
  id: Uuid,
  full_name: v.pipe(v.string(), v.description('`<owner>/<repo>`')),
  private: v.boolean(),
  html_url: v.pipe(v.string(), v.url()),
});
export const ReposResponse = v.object({ connected: v.boolean(), repositories: v.array(Repository) });

export const Finding = v.object({
  file: v.string(),
  line: v.pipe(v.number(), v.integer()),
  column: v.pipe(v.number(), v.integer()),
  severity: v.picklist(SEVERITY),
  category: v.string(),
  rule_id: v.string(),
  title: v.string(),
  description: v.string(),
  recommendation: v.string(),
  fingerprint: v.optional(
    v.pipe(
      v.string(),
      v.description('The finding’s line-independent identity (rule, file, job and flagged text): the same for the same finding in the CLI’s JSON and baselines. In the response of POST /api/scan.'),
    ),
  ),
  fix: v.optional(
    v.pipe(
      v.object({
        safe: v.pipe(v.boolean(), v.description('False when the fix may change what the workflow does (or changes repository settings).')),
        diff: v.optional(v.pipe(v.string(), v.description('Unified diff of the finding’s file that fixes it (`chainbreaker scan --fix` applies the same edit).'))),
        api: v.optional(
          v.pipe(
            v.object({
              method: v.picklist(['PUT', 'PATCH', 'POST', 'DELETE']),
              path: v.pipe(v.string(), v.description('GitHub REST path, e.g. `/repos/octo/app/actions/permissions/workflow`.')),
              body: v.optional(v.record(v.string(), v.unknown())),
            }),
            v.description('Settings findings: the GitHub API call that fixes the setting. The service never makes it.'),
          ),
        ),
      }),
      v.description('How to fix the finding, when Chainbreaker knows: a diff for workflow files, an API call for settings.'),
    ),
  ),
});
export const Counts = v.object({ HIGH: Count, MEDIUM: Count, LOW: Count, INFO: Count });
export const ScanResult = v.object({
  scan_id: Uuid,
  repo_id: Uuid,
  counts: Counts,
  findings: v.array(Finding),
  commit_sha: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[0-9a-f]{40}$/),
      v.description('The commit the scan read (the default branch’s head), when the code host said: a finding is at `<html_url>/blob/<commit_sha>/<file>#L<line>`.'),
    ),
  ),
  dismissed_findings: v.optional(
    v.pipe(
      v.array(Finding),
      v.description('POST /api/scan only, when some are: the findings dismissed in this repository (`PUT .../dismissals/{fingerprint}`), left out of `findings` and `counts`. The stored scan keeps every finding.'),
    ),
  ),
  fixes_limited: v.optional(
    v.pipe(
      v.string(),
      v.description('Present when findings that may have a fix got none because computing fixes met a bound (the scan’s time, a file’s size, the number of fixes): says which, and for how many findings.'),
    ),
  ),
});
const Ruleset = v.picklist(['all', 'owasp']);
const Trigger = v.pipe(
  v.picklist(['manual', 'push', 'pull_request', 'schedule']),
  v.description('What started the scan: a person (`POST /api/scan`), a push to the default branch, a pull request’s check, or the daily re-check of the online audits (the GitHub App’s monitoring).'),
);
const Commit = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/), v.description('The commit the scan read, when the code host said.'));
export const ScanSummary = v.object({ scan_id: Uuid, repo_id: Uuid, ruleset: Ruleset, trigger: Trigger, counts: Counts, created_at: Timestamp, commit_sha: v.optional(Commit) });
export const CheckRun = v.object({
  pull_number: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The pull request the check ran on.')),
  head_sha: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/), v.description('The commit the check run is on (the pull request’s head).')),
  conclusion: v.pipe(
    v.picklist(['success', 'failure', 'neutral']),
    v.description('`failure`: a new HIGH finding or a new attack path (when the installation’s policy fails on them); `neutral`: the scan met a limit; else `success`.'),
  ),
  html_url: v.pipe(v.string(), v.url(), v.description('The check run on GitHub.')),
  new_findings: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('New findings above LOW, compared with the base commit.')),
  new_attack_paths: v.pipe(v.number(), v.integer(), v.minValue(0)),
  updated_at: Timestamp,
});
export const CheckRunResponse = v.object({
  check_run: v.pipe(v.nullable(CheckRun), v.description('The latest check run Chainbreaker published on one of the repository’s pull requests; null before the first.')),
});
export const DeadJob = v.object({
  kind: v.pipe(v.picklist(['push-scan', 'pr-check', 'recheck']), v.description('A push’s scan, a pull request’s check, or the daily re-check.')),
  repo_id: Uuid,
  full_name: v.pipe(v.string(), v.description('The repository, `owner/name`.')),
  sha: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/), v.description('The commit the job was for (a pull request check’s: the head).'))),
  pull_number: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  reason: v.pipe(v.string(), v.maxLength(1000), v.description('Why it was set aside: the last failure’s message.')),
  finished_at: Timestamp,
});
export const DeadJobsResponse = v.object({
  dead_jobs: v.pipe(v.array(DeadJob), v.description('Newest first, at most 100; kept 30 days.')),
});
export const CheckPolicy = v.object({
  fail_on_high: v.pipe(
    v.boolean(),
    v.description('Whether a new HIGH finding or a new attack path fails the pull request check (`failure`); false: the check reports them and succeeds. Default true.'),
  ),
});
export const CheckPolicyBody = v.strictObject({ fail_on_high: v.boolean('must be a boolean') });
export const ScansResponse = v.object({
  scans: v.pipe(v.array(ScanSummary), v.description('Newest first.')),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next (older) page; null on the last page.')),
});
export const RepositoryOverview = v.object({
  repo_id: Uuid,
  full_name: v.pipe(v.string(), v.description('`<owner>/<repo>`')),
  private: v.boolean(),
  html_url: v.pipe(v.string(), v.url()),
  latest_scan: v.pipe(
    v.nullable(
      v.object({
        scan_id: Uuid,
        ruleset: Ruleset,
        created_at: Timestamp,
        counts: v.pipe(Counts, v.description('The open findings: those the user dismissed are left out.')),
        dismissed: v.pipe(v.number(), v.integer(), v.description('How many of the scan\'s findings the user dismissed.')),
      }),
    ),
    v.description('The latest scan; null when the repository was never scanned.'),
  ),
});
export const RepositoryOverviewResponse = v.object({ repositories: v.pipe(v.array(RepositoryOverview), v.description('By full name.')) });
export const StoredScan = v.object({ ...ScanResult.entries, ruleset: Ruleset, trigger: Trigger, created_at: Timestamp });

export const Combination = v.object({
  id: v.string(),
  title: v.string(),
  severity: v.picklist(['CRITICAL', 'HIGH', 'MEDIUM']),
  scope: v.picklist(['file', 'repo']),
  file: v.string(),
  impact: v.string(),
  break_chain: v.string(),
  break_chain_rule: v.string(),
  stages: v.array(
    v.object({ order: v.pipe(v.number(), v.integer(), v.minValue(0)), title: v.string(), description: v.string(), rule_id: v.string() }),
  ),
  components: v.array(v.object({ rule_id: v.string(), finding: Finding })),
  fingerprint: v.optional(
    v.pipe(v.string(), v.description('The attack path’s stable identity (its kind and its components’ fingerprints), to dismiss it with `PUT .../dismissals/{fingerprint}`.')),
  ),
});
export const Dismissal = v.object({
  fingerprint: v.string(),
  kind: DismissalKind,
  reason: DismissalReason,
  comment: v.string(),
  dismissed_by: v.pipe(v.string(), v.description('The user who decided (their id).')),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const DismissedCombination = v.object({
  ...Combination.entries,
  dismissal: v.object({ reason: DismissalReason, comment: v.string(), updated_at: Timestamp }),
});
export const CombosResponse = v.object({
  combos: v.array(Combination),
  critical_count: Count,
  high_count: Count,
  dismissed: v.optional(v.pipe(v.array(DismissedCombination), v.description('The attack paths dismissed in this repository, left out of `combos` and the counts.'))),
});
export const AttackPathsResponse = v.object({
  repos: v.array(
    v.object({
      repo_id: Uuid,
      full_name: v.string(),
      html_url: v.string(),
      combos: v.array(Combination),
      commit_sha: v.optional(v.pipe(v.string(), v.description('The commit the repository’s latest scan read, when the code host said: a stage’s finding is at `<html_url>/blob/<commit_sha>/<file>#L<line>`.'))),
    }),
  ),
  total_combos: Count,
  critical_count: Count,
  high_count: Count,
  dismissed: v.optional(
    v.pipe(
      v.array(v.object({ repo_id: Uuid, full_name: v.string(), html_url: v.string(), combo: DismissedCombination })),
      v.description('The attack paths dismissed by the user, left out of `repos` and the counts (a path one of whose findings is dismissed is not formed at all).'),
    ),
  ),
});
export const DismissalsResponse = v.object({
  dismissals: v.pipe(v.array(Dismissal), v.description('The decisions in force, by fingerprint.')),
  events: v.pipe(
    v.array(
      v.object({
        fingerprint: v.string(),
        action: v.picklist(['dismiss', 'reopen']),
        kind: DismissalKind,
        reason: v.nullable(DismissalReason),
        comment: v.string(),
        actor: v.string(),
        at: Timestamp,
      }),
    ),
    v.description('The audit trail, newest first (at most 500; the newest 20 per fingerprint are kept).'),
  ),
});

export const AuthorizeResponse = v.object({
  url: v.pipe(v.string(), v.description("GitHub's authorize page for the App's user authorization; `state` in it is bound to this user for 10 minutes")),
});

export const AuthorizationBody = v.strictObject({
  code: v.pipe(v.string('is required'), v.regex(/^[A-Za-z0-9_-]{1,200}$/, "must be the code GitHub's redirect carried")),
  state: v.pipe(v.string('is required'), v.regex(/^[A-Za-z0-9._-]{1,200}$/, 'must be the state GitHub sent back')),
});

export const AuthorizationResult = v.object({
  github_login: v.pipe(v.string(), v.description('The GitHub account the authorization acts for')),
});

export const InstallationLink = v.object({
  installation_id: v.pipe(v.number(), v.integer()),
  account: v.pipe(v.string(), v.description('Login of the account that owns the installation')),
  account_type: v.pipe(v.string(), v.description('`User` or `Organization`')),
});

export const Installation = v.object({ ...InstallationLink.entries, created_at: Timestamp });
export const InstallationsResponse = v.object({ installations: v.array(Installation) });

export const OpenApiDocument = v.pipe(v.record(v.string(), v.unknown()), v.description('An OpenAPI 3.1 document'));

export const ErrorBody = v.object({
  error: v.object({
    code: v.picklist([
      'invalid_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'conflict',
      'method_not_allowed',
      'payload_too_large',
      'rate_limited',
      'upstream_unavailable',
      'insufficient_storage',
      'internal',
    ]),
    message: v.string(),
    details: v.optional(
      v.pipe(
        v.unknown(),
        v.description(
          'For 400: `[{location: "body"|"query"|"path", path: [key...], message}]`; for 500: `{request_id}`. Absent otherwise.',
        ),
      ),
    ),
  }),
});

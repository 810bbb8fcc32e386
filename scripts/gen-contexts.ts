/**
 * Generates `lib/engine/contexts/webhook-contexts.generated.ts`: which `github.*` expression contexts an
 * outsider can control, derived from GitHub's webhook payload schemas (`@octokit/webhooks-schemas`).
 *
 * Every field reachable from the payload of an event that can trigger a workflow is classified:
 * - arbitrary (2): free text an outsider can choose: plain `type: string`, and everything below a free-form
 *   object (`additionalProperties`, or a schema without any constraint such as `{}`);
 * - structured (1): strings whose shape limits, but does not remove, attacker influence (`format: uri`,
 *   `uri-template`, `email`, any other format except dates, and `pattern`);
 * - fixed (0): numbers, integers, booleans, enums/consts, `date-time`, nulls.
 * The manual overrides listed in `STRING_OVERRIDES` then cap the class of some string fields whose schema is
 * looser than what GitHub actually sends (logins, SHAs, ids, ...). When a path has different classes in
 * different events or alternatives, the most dangerous one wins.
 *
 * `generateWebhookContextsModule` is pure (schema in, source text out) so a test can regenerate the module
 * in memory and compare it with the committed file; only the CLI block at the bottom touches the disk.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** 0 = fixed, 1 = structured, 2 = arbitrary; ordered so that `Math.max` picks the most dangerous. */
export type CapabilityCode = 0 | 1 | 2;
const FIXED = 0;
const STRUCTURED = 1;
const ARBITRARY = 2;

/** The subset of JSON Schema (draft-07) that the webhook schemas use. */
export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema | readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly pattern?: string;
}

export interface WebhookSchemas {
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/**
 * Events that can trigger a workflow (GitHub docs, "Events that trigger workflows") mapped to the schema
 * definitions of their payloads. Not listed, because they have no payload of their own:
 * `workflow_call` (`github.event` is the caller's payload, covered by the caller's trigger),
 * `image_version` (no documented payload), `schedule` (see `EXTRA_EVENT_FIELDS`).
 */
export const TRIGGER_PAYLOADS: Readonly<Record<string, readonly string[]>> = {
  branch_protection_rule: ['branch_protection_rule_event'],
  check_run: ['check_run_event'],
  check_suite: ['check_suite_event'],
  create: ['create$event'],
  delete: ['delete$event'],
  deployment: ['deployment_event'],
  deployment_status: ['deployment_status_event'],
  discussion: ['discussion_event'],
  discussion_comment: ['discussion_comment_event'],
  fork: ['fork$event'],
  gollum: ['gollum$event'],
  issue_comment: ['issue_comment_event'],
  issues: ['issues_event'],
  label: ['label_event'],
  merge_group: ['merge_group_event'],
  milestone: ['milestone_event'],
  page_build: ['page_build$event'],
  public: ['public$event'],
  pull_request: ['pull_request_event'],
  pull_request_review: ['pull_request_review_event'],
  pull_request_review_comment: ['pull_request_review_comment_event'],
  // Same payload as pull_request; the workflow just runs in the base repository's context.
  pull_request_target: ['pull_request_event'],
  push: ['push$event'],
  registry_package: ['registry_package_event'],
  release: ['release_event'],
  repository_dispatch: ['repository_dispatch$event'],
  status: ['status$event'],
  watch: ['watch_event'],
  workflow_dispatch: ['workflow_dispatch$event'],
  workflow_run: ['workflow_run_event'],
};

/**
 * Top-level payload fields left out of the table. `inputs` (workflow_dispatch) is resolved against the
 * workflow's declared inputs by the engine, so the table answers 'unknown' for it.
 */
const EXCLUDED_EVENT_FIELDS: readonly string[] = ['inputs'];

/** Payload fields of triggers without a schema in @octokit/webhooks-schemas. */
const EXTRA_EVENT_FIELDS: Readonly<Record<string, CapabilityCode>> = {
  // `schedule` runs carry the cron expression, which comes from the workflow file itself.
  schedule: FIXED,
};

/**
 * The rest of the `github` context (everything but `event`), written by hand: these values are not part of
 * the webhook payload. Principle: values set by GitHub or taken from the workflow file, and refs that only
 * users with write access to the base repository can create, are fixed.
 */
const GITHUB_CONTEXT_FIELDS: Readonly<Record<string, CapabilityCode>> = {
  // Source branch of a pull request: chosen by whoever opens the pull request, fork authors included.
  head_ref: ARBITRARY,
  // Target branch of a pull request: a branch of the base repository.
  base_ref: FIXED,
  // On privileged triggers (pull_request_target, workflow_run, issue_comment, ...) ref/ref_name name the base
  // repository's branch (or `<number>/merge` on pull_request), so only users with write access choose them.
  ref: FIXED,
  ref_name: FIXED,
  ref_protected: FIXED,
  ref_type: FIXED,
  sha: FIXED,
  event_name: FIXED,
  event_path: FIXED,
  // Repository names are restricted to [A-Za-z0-9._-], owners to logins.
  repository: FIXED,
  repository_id: FIXED,
  repository_owner: FIXED,
  repository_owner_id: FIXED,
  repositoryurl: FIXED,
  // GitHub logins are alphanumerics and single hyphens (apps add a literal `[bot]` suffix).
  actor: FIXED,
  actor_id: FIXED,
  triggering_actor: FIXED,
  run_id: FIXED,
  run_number: FIXED,
  run_attempt: FIXED,
  retention_days: FIXED,
  // Taken from the workflow file being analysed: whoever can change them can change the script itself.
  workflow: FIXED,
  workflow_ref: FIXED,
  workflow_sha: FIXED,
  job: FIXED,
  action: FIXED,
  action_path: FIXED,
  action_ref: FIXED,
  action_repository: FIXED,
  action_status: FIXED,
  // Runner paths and instance URLs.
  env: FIXED,
  path: FIXED,
  workspace: FIXED,
  api_url: FIXED,
  graphql_url: FIXED,
  server_url: FIXED,
  secret_source: FIXED,
  // A credential, not attacker data; secret handling is the business of other rules.
  token: FIXED,
};

/** Definitions that describe a repository (full or abbreviated). */
const REPOSITORY_DEFINITIONS: ReadonlySet<string> = new Set(['repository', 'repository-lite', 'repo-ref']);

/**
 * URL fields whose value is not built by GitHub from ids and names: set by the creator of a check run, status
 * or deployment (`details_url`, `target_url`, `log_url`, `environment_url`), an App or an owner (`external_url`,
 * `website_url`, `mirror_url`, `about_url`), or carrying a file, asset or package name (`blob_url`,
 * `download_url`, `browser_download_url`, `content_url`, `source_url`, `package_url`, `image_url`, `raw_url`).
 */
const SUPPLIED_URLS: ReadonlySet<string> = new Set([
  'details_url',
  'target_url',
  'log_url',
  'environment_url',
  'external_url',
  'website_url',
  'mirror_url',
  'about_url',
  'blob_url',
  'raw_url',
  'download_url',
  'browser_download_url',
  'content_url',
  'source_url',
  'package_url',
  'image_url',
]);

interface StringOverride {
  /** Property name (as in the schema) and the definition that declares it, when it is a direct property. */
  readonly matches: (key: string, definition: string | undefined) => boolean;
  /** Upper bound for the class of a string at a matching property. */
  readonly cap: CapabilityCode;
}

/**
 * Manual overrides on top of the schema. Each caps the class of string-typed fields (never raises it), because
 * the schema types them as plain strings although GitHub generates or validates them. Keep in sync with the
 * table in lib/engine/contexts/README.md.
 */
const STRING_OVERRIDES: readonly StringOverride[] = [
  // GitHub logins: alphanumerics and single hyphens; app bots add `[bot]`. A commit author's `username` is
  // the GitHub login GitHub matched to the commit email.
  { matches: (key) => key === 'login' || key === 'username', cap: FIXED },
  // GraphQL node ids and numeric/Git-object ids generated by GitHub (a push commit's `id` is its SHA).
  // Not `external_id`: the creator of a check run sets it freely.
  {
    matches: (key) => key === 'id' || key === 'commit_id' || key === 'original_commit_id' || key === 'tree_id' || key === 'node_id' || key.endsWith('_node_id'),
    cap: FIXED,
  },
  // Hex digests: commit SHAs (`before`/`after` are push and check_suite SHAs) and package file hashes.
  {
    matches: (key) => ['sha', 'sha1', 'sha256', 'md5', 'before', 'after'].includes(key) || key.endsWith('_sha'),
    cap: FIXED,
  },
  // Always empty or an MD5 hash.
  { matches: (key) => key === 'gravatar_id', cap: FIXED },
  // Timestamps serialised by GitHub; the schema omits `format: date-time` on some of them.
  { matches: (key) => key.endsWith('_at') || key === 'date' || key === 'timestamp', cap: FIXED },
  // Repository names allow only [A-Za-z0-9._-]; `full_name` is `<owner login>/<name>`; `organization` is an
  // organization login. Even in a fork the attacker cannot put shell or JavaScript syntax into them.
  {
    matches: (key, definition) => definition !== undefined && REPOSITORY_DEFINITIONS.has(definition) && ['name', 'full_name', 'organization'].includes(key),
    cap: FIXED,
  },
  // The name of the event that started a workflow run (`push`, `pull_request`, ...): GitHub sets it from its own
  // list of event names, whoever started the run.
  { matches: (key, definition) => key === 'event' && (definition === 'workflow-run' || definition === 'deployment-workflow-run'), cap: FIXED },
  // Emails: the schema has no `format: email`. Git does not validate author emails, so this understates the
  // risk of commit author emails; the spec classifies emails as structured all the same.
  { matches: (key) => key === 'email', cap: STRUCTURED },
  // URLs GitHub builds itself from the host, the owner and repository names (logins and `[A-Za-z0-9._-]`), and
  // numbers or ids (`https://github.com/o/r/issues/12`, `https://api.github.com/repos/o/r/pulls/3`, templates
  // such as `{/number}`): an issue's `html_url` carries none of the issue's text. Not the URLs someone else
  // supplies, nor those that embed a file, asset or package name (`SUPPLIED_URLS`). (A wiki page's `html_url`
  // embeds its name, but `gollum` events come from people who can edit the wiki, collaborators by default.)
  { matches: (key) => (key === 'url' || key.endsWith('_url')) && !SUPPLIED_URLS.has(key), cap: FIXED },
  // Other URLs where the schema omits `format: uri`; like other URIs they can embed attacker-chosen names.
  { matches: (key) => key === 'url' || key.endsWith('_url') || key === 'compare', cap: STRUCTURED },
];

/** Bounds the walk even if a future schema nests `$ref`s deeply; today's payloads nest at most 7 levels. */
const MAX_DEPTH = 24;

/** A node of the tree built while walking the schemas. */
export interface SchemaNode {
  /** Class when the value at this path is a scalar (the most dangerous over all alternatives). */
  scalar: CapabilityCode | undefined;
  /** Class of any value below this path that no listed property describes (free-form objects). */
  open: CapabilityCode | undefined;
  readonly children: Map<string, SchemaNode>;
}

function createNode(): SchemaNode {
  return { scalar: undefined, open: undefined, children: new Map() };
}

function raise(current: CapabilityCode | undefined, next: CapabilityCode): CapabilityCode {
  return current === undefined || next > current ? next : current;
}

function childOf(node: SchemaNode, key: string): SchemaNode {
  const lowered = key.toLowerCase();
  let child = node.children.get(lowered);
  if (child === undefined) {
    child = createNode();
    node.children.set(lowered, child);
  }
  return child;
}

/** Where a value sits: the property name and the definition whose object declares it. */
interface Site {
  readonly key: string;
  readonly declaredBy: string | undefined;
}

class SchemaWalker {
  constructor(private readonly definitions: Readonly<Record<string, JsonSchema>>) {}

  walkDefinition(name: string, node: SchemaNode): void {
    this.walk(this.resolve(name), node, { key: '', declaredBy: undefined }, name, [name], 0);
  }

  private resolve(name: string): JsonSchema {
    const schema = this.definitions[name];
    if (schema === undefined) throw new Error(`@octokit/webhooks-schemas has no definition ${JSON.stringify(name)}`);
    return schema;
  }

  /**
   * @param definition the definition whose body `schema` belongs to (undefined inside inline objects)
   * @param refs definitions being expanded on this branch; a `$ref` back into one of them is a cycle and
   *   ends the walk there (paths below it classify as 'unknown')
   */
  private walk(schema: JsonSchema, node: SchemaNode, site: Site, definition: string | undefined, refs: readonly string[], depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (schema.$ref !== undefined) {
      const name = schema.$ref.replace(/^#\/definitions\//, '');
      if (!refs.includes(name)) this.walk(this.resolve(name), node, site, name, [...refs, name], depth);
      return;
    }
    for (const alternative of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
      this.walk(alternative, node, site, definition, refs, depth);
    }
    if (schema.enum !== undefined || schema.const !== undefined) {
      node.scalar = raise(node.scalar, FIXED);
      return;
    }
    const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
    const isComposite = schema.allOf !== undefined || schema.oneOf !== undefined || schema.anyOf !== undefined;
    if (types.length === 0 && schema.properties === undefined && schema.items === undefined && !isComposite) {
      // `{}`: any JSON value at all.
      node.scalar = raise(node.scalar, ARBITRARY);
      node.open = raise(node.open, ARBITRARY);
      return;
    }
    if (types.includes('object') || schema.properties !== undefined) this.walkObject(schema, node, definition, refs, depth);
    if (types.includes('array') || schema.items !== undefined) {
      const items = schema.items === undefined ? [{}] : Array.isArray(schema.items) ? schema.items : [schema.items as JsonSchema];
      for (const item of items) this.walk(item, childOf(node, '*'), { key: '*', declaredBy: definition }, undefined, refs, depth + 1);
    }
    for (const type of types) {
      if (type === 'string') node.scalar = raise(node.scalar, classifyString(schema, site));
      else if (type === 'integer' || type === 'number' || type === 'boolean') node.scalar = raise(node.scalar, FIXED);
    }
  }

  private walkObject(schema: JsonSchema, node: SchemaNode, definition: string | undefined, refs: readonly string[], depth: number): void {
    const properties = Object.entries(schema.properties ?? {});
    for (const [key, property] of properties) {
      if (depth === 0 && EXCLUDED_EVENT_FIELDS.includes(key)) continue;
      this.walk(property, childOf(node, key), { key, declaredBy: definition }, undefined, refs, depth + 1);
    }
    // JSON Schema allows extra properties unless told otherwise; the webhook schemas say `false` on every
    // object that lists properties, so only property-less objects without `false` are treated as free-form.
    const extra = schema.additionalProperties ?? (properties.length === 0 ? true : false);
    if (extra === true) node.open = raise(node.open, ARBITRARY);
    else if (extra !== false) node.open = raise(node.open, aggregate(this.subtree(extra, definition, refs, depth)));
  }

  /** Classifies the values of `additionalProperties`: free-form keys take the most dangerous class below them. */
  private subtree(schema: JsonSchema, definition: string | undefined, refs: readonly string[], depth: number): SchemaNode {
    const node = createNode();
    this.walk(schema, node, { key: '*', declaredBy: definition }, undefined, refs, depth + 1);
    return node;
  }
}

function classifyString(schema: JsonSchema, site: Site): CapabilityCode {
  let cls: CapabilityCode;
  if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'time') cls = FIXED;
  else if (schema.format !== undefined || schema.pattern !== undefined) cls = STRUCTURED;
  else cls = ARBITRARY;
  for (const override of STRING_OVERRIDES) {
    if (override.cap < cls && override.matches(site.key, site.declaredBy)) cls = override.cap;
  }
  return cls;
}

/** The most dangerous class of the value at a node, including everything a serialisation of it exposes. */
function aggregate(node: SchemaNode): CapabilityCode {
  let cls: CapabilityCode = FIXED;
  if (node.scalar !== undefined) cls = raise(cls, node.scalar);
  if (node.open !== undefined) cls = raise(cls, node.open);
  for (const child of node.children.values()) cls = raise(cls, aggregate(child));
  return cls;
}

/** Builds the whole `github` context tree: the hand-written fields plus `event` from the triggers' schemas. */
export function buildGithubContextTree(schemas: WebhookSchemas, triggers: Readonly<Record<string, readonly string[]>> = TRIGGER_PAYLOADS): SchemaNode {
  const root = createNode();
  for (const [key, cls] of Object.entries(GITHUB_CONTEXT_FIELDS)) childOf(root, key).scalar = cls;
  const event = childOf(root, 'event');
  const walker = new SchemaWalker(schemas.definitions);
  const definitions = [...new Set(Object.values(triggers).flat())].sort();
  for (const name of definitions) walker.walkDefinition(name, event);
  for (const [key, cls] of Object.entries(EXTRA_EVENT_FIELDS)) {
    const child = childOf(event, key);
    child.scalar = raise(child.scalar, cls);
  }
  return root;
}

export interface ContextStatistics {
  /** Leaf paths below `github.event` (scalars, including free-form objects), by class. */
  readonly eventLeaves: Readonly<Record<'arbitrary' | 'structured' | 'fixed', number>>;
  /** Paths below `github.event` that name objects or arrays. */
  readonly eventObjects: number;
}

export function contextStatistics(root: SchemaNode): ContextStatistics {
  const leaves = { arbitrary: 0, structured: 0, fixed: 0 };
  let objects = 0;
  const names = ['fixed', 'structured', 'arbitrary'] as const;
  const visit = (node: SchemaNode): void => {
    for (const child of node.children.values()) {
      if (child.children.size > 0) {
        objects += 1;
        visit(child);
      } else leaves[names[aggregate(child)]] += 1;
    }
  };
  const event = root.children.get('event');
  if (event !== undefined) visit(event);
  return { eventLeaves: leaves, eventObjects: objects };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyKey(key: string): string {
  if (key === '__proto__') throw new Error('a schema property named __proto__ cannot be emitted as an object key');
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** The literal of one node, given how to write its children: a class code, or `{c,o?,k?}` with sorted keys. */
function nodeLiteral(node: SchemaNode, child: (node: SchemaNode) => string): string {
  if (node.children.size === 0 && node.open === undefined) return String(node.scalar ?? FIXED);
  const parts = [`c:${aggregate(node)}`];
  if (node.open !== undefined) parts.push(`o:${node.open}`);
  if (node.children.size > 0) {
    const keys = [...node.children.keys()].sort();
    parts.push(`k:{${keys.map((key) => `${propertyKey(key)}:${child(node.children.get(key) as SchemaNode)}`).join(',')}}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Serialises the tree as TypeScript. Identical subtrees (users, repositories, commits recur dozens of times)
 * are emitted once as constants and shared, which keeps the module small and quick to evaluate.
 */
function emitModule(root: SchemaNode, version: string): string {
  // First pass: the self-contained literal of every node, to find subtrees that occur more than once.
  const literals = new Map<SchemaNode, string>();
  const occurrences = new Map<string, number>();
  const literalOf = (node: SchemaNode): string => {
    let literal = literals.get(node);
    if (literal === undefined) {
      literal = nodeLiteral(node, literalOf);
      literals.set(node, literal);
      occurrences.set(literal, (occurrences.get(literal) ?? 0) + 1);
    }
    return literal;
  };
  literalOf(root);

  // Second pass: children before parents, each repeated branch as a constant.
  const constants: string[] = [];
  const constantNames = new Map<string, string>();
  const expressionOf = (node: SchemaNode): string => {
    const literal = literals.get(node) as string;
    const name = constantNames.get(literal);
    if (name !== undefined) return name;
    const expression = nodeLiteral(node, expressionOf);
    if (!expression.startsWith('{') || node === root || (occurrences.get(literal) ?? 0) < 2) return expression;
    const constant = `n${constantNames.size}`;
    constants.push(`const ${constant}: ContextBranch = ${expression};`);
    constantNames.set(literal, constant);
    return constant;
  };
  const rootExpression = expressionOf(root);

  return [
    `// Generated by \`npm run gen:contexts\` (scripts/gen-contexts.ts) from @octokit/webhooks-schemas ${version}. Do not edit.`,
    '//',
    '// The `github` expression context as a tree. A node is either a scalar class or a branch:',
    '//   class codes: 0 = fixed, 1 = structured, 2 = arbitrary (attacker-chosen free text);',
    '//   c = the most dangerous class anywhere at or below the node (what serialising it exposes);',
    '//   k = children by lower-cased key, "*" for array items;',
    '//   o = class of any key the schema does not list (free-form objects such as client_payload).',
    '// Identical subtrees are shared as the constants n0, n1, ...',
    '',
    'export type CapabilityCode = 0 | 1 | 2;',
    'export type ContextNode = CapabilityCode | ContextBranch;',
    'export interface ContextBranch {',
    '  readonly c: CapabilityCode;',
    '  readonly o?: CapabilityCode;',
    '  readonly k?: { readonly [key: string]: ContextNode };',
    '}',
    '',
    ...constants,
    '',
    `export const GITHUB_CONTEXT: ContextBranch = ${rootExpression};`,
    '',
  ].join('\n');
}

/** Pure: the complete source text of the generated module. */
export function generateWebhookContextsModule(schemas: WebhookSchemas, version: string): string {
  return emitModule(buildGithubContextTree(schemas), version);
}

export interface InstalledSchemas {
  readonly schemas: WebhookSchemas;
  readonly version: string;
}

/** Reads the installed @octokit/webhooks-schemas package. */
export function loadInstalledSchemas(): InstalledSchemas {
  const require = createRequire(import.meta.url);
  const schemaFile = require.resolve('@octokit/webhooks-schemas/schema.json');
  const packageFile = require.resolve('@octokit/webhooks-schemas/package.json');
  const schemas = JSON.parse(readFileSync(schemaFile, 'utf8')) as WebhookSchemas;
  if (typeof schemas.definitions !== 'object' || schemas.definitions === null) {
    throw new Error(`${schemaFile} has no "definitions" object`);
  }
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  return { schemas, version };
}

export const GENERATED_MODULE_URL = new URL('../lib/engine/contexts/webhook-contexts.generated.ts', import.meta.url);

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { schemas, version } = loadInstalledSchemas();
  writeFileSync(GENERATED_MODULE_URL, generateWebhookContextsModule(schemas, version));
  const stats = contextStatistics(buildGithubContextTree(schemas));
  console.log(`wrote ${GENERATED_MODULE_URL.pathname.replace(/^.*\/lib\//, 'lib/')}`, stats);
}

import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type { ErrorStatus, Operation, ParamsSchema } from '../http/operation.js';
import { operations } from './operations.js';
import * as s from './schemas.js';

/** Shapes that appear in several places get a name under `components.schemas`. */
const NAMED = {
  Error: s.ErrorBody,
  Rule: s.Rule,
  RuleState: s.RuleState,
  RuleSetting: s.RuleSetting,
  RuleOverride: s.RuleOverride,
  ...s.RULE_OPTIONS_SCHEMAS,
  Repository: s.Repository,
  Finding: s.Finding,
  Counts: s.Counts,
  Combination: s.Combination,
  ScanResult: s.ScanResult,
  InstallationLink: s.InstallationLink,
};

const BASE_CONVERSION = {
  target: 'draft-2020-12',
  typeMode: 'input',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  // Runtime-only steps: a transform (string -> number) and custom checks have no JSON Schema form.
  ignoreActions: ['transform', 'check'],
} satisfies ConversionConfig;
const CONVERSION: ConversionConfig = { ...BASE_CONVERSION, definitions: NAMED };

function schemaOf(schema: Parameters<typeof toJsonSchema>[0]): JsonSchema {
  const { $defs: _definitions, $schema: _dialect, ...rest } = toJsonSchema(schema, CONVERSION);
  return rest;
}

const ERROR_RESPONSES: Record<ErrorStatus | 401 | 500, { name: string; description: string; headers?: string[] }> = {
  400: { name: 'BadRequest', description: 'Invalid request: malformed JSON or input that fails the schema (`details` lists each issue), or an unknown rule id.' },
  401: { name: 'Unauthorized', description: 'Missing, invalid or expired bearer token.', headers: ['WWW-Authenticate'] },
  403: { name: 'Forbidden', description: 'Authenticated, but not allowed.' },
  404: { name: 'NotFound', description: 'The repository does not exist or is not the user’s (a malformed id in the path included).' },
  409: { name: 'Conflict', description: 'GitHub suspended the installation: its data stays, scans and syncs are refused until it is unsuspended.' },
  413: { name: 'PayloadTooLarge', description: 'The request body exceeds the size limit.' },
  429: { name: 'RateLimited', description: 'Too many requests.', headers: ['Retry-After'] },
  502: { name: 'BadGateway', description: 'The code host answered with an error.' },
  503: { name: 'ServiceUnavailable', description: 'The code host (or the token signing keys) could not be reached.', headers: ['Retry-After'] },
  507: { name: 'InsufficientStorage', description: 'The user’s stored scans are at their quota (`SCAN_STORAGE_QUOTA` findings) even after dropping the oldest history: the scan was not stored.' },
  500: { name: 'Internal', description: 'Unexpected error; the body holds only the request id.' },
};

const HEADERS = {
  'X-Request-Id': { description: 'Id of this request (the incoming `x-request-id` when sane, else generated); quote it when reporting a problem.', schema: { type: 'string' } },
  'WWW-Authenticate': { description: '`Bearer` (no token) or `Bearer error="invalid_token"`.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

const headerRefs = (names: string[]) =>
  Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function parameters(schema: ParamsSchema | undefined, location: 'path' | 'query') {
  if (schema === undefined) return [];
  return Object.entries(schema.entries).map(([name, entry]) => {
    const { description, ...rest } = schemaOf(entry);
    return { name, in: location, required: location === 'path' || entry.type !== 'optional', ...(description ? { description } : {}), schema: rest };
  });
}

function operationObject(op: Operation) {
  const statuses = [...(op.auth ? [401] : []), ...op.errors, 500] as (ErrorStatus | 401 | 500)[];
  const success =
    op.response === null
      ? { '204': { description: 'Done; no body.', headers: headerRefs([]) } }
      : { '200': { description: 'OK', headers: headerRefs([]), content: { 'application/json': { schema: schemaOf(op.response) } } } };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.auth ? [{ bearerAuth: [] }] : [],
    parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query')],
    ...(op.body === undefined
      ? {}
      : { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(op.body) } } } }),
    responses: {
      ...success,
      ...Object.fromEntries([...new Set(statuses)].map((status) => [String(status), { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` }])),
    },
  };
}

/** The OpenAPI 3.1 document of every operation, generated from the schemas the handlers validate with. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(operations) as Operation[]) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  }
  const schemas = toJsonSchemaDefs(NAMED, BASE_CONVERSION);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chainbreaker API',
      version: '1.0.0',
      description:
        'Scans GitHub Actions workflows and repository settings for CI/CD weaknesses and chains them into attack paths. ' +
        'Every error has the body `{"error": {"code", "message", "details"?}}`; every response carries `x-request-id`.',
    },
    servers: [{ url: '/' }],
    tags: ['service', 'repositories', 'scans', 'combinations', 'triage', 'rules'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Supabase access token: HS256 (or ES256/RS256 from the project JWKS), `aud` and `role` `authenticated`, `sub` the user id.',
        },
      },
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, stripDialect(schema)])),
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description, headers = [] }) => [
          name,
          { description, headers: headerRefs(headers), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
}

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

let document: Record<string, unknown> | undefined;

/** The document, built on first use and then reused (it depends only on code). */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApiDocument();
  return document;
}

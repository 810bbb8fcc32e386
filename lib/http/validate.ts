import * as v from 'valibot';
import { invalidRequest, notFound, type InputIssue } from './errors.js';

const MAX_ISSUES = 20;
const MAX_MESSAGE_LENGTH = 200;

function issuesOf(location: InputIssue['location'], issues: readonly v.BaseIssue<unknown>[]): InputIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => {
    const message = plainMessage(issue);
    return {
      location,
      path: (issue.path ?? []).map((item) => (typeof item.key === 'number' ? item.key : String(item.key))),
      message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message,
    };
  });
}

/**
 * valibot's own messages for object keys (`Invalid key: Expected "enabled" but received undefined`) in the
 * style of the schemas' messages (`must be a boolean`): the path already names the key.
 */
function plainMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.message.startsWith('Invalid key:')) {
    if (issue.received === 'undefined') return 'is required';
    if (issue.expected === 'never') return 'is not a known key';
  }
  return issue.message;
}

/** Validates a JSON body or a query string: 400 with every issue's location and path in `details`. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, location: 'body' | 'query'): v.InferOutput<S> {
  const what = location === 'body' ? 'request body' : 'query string';
  // valibot's object schemas accept arrays (they are objects to JavaScript); JSON arrays are not objects.
  if (Array.isArray(input) && schema.type.endsWith('object')) {
    throw invalidRequest(`The ${what} is invalid.`, [{ location, path: [], message: 'must be a JSON object' }]);
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw invalidRequest(`The ${what} is invalid.`, issuesOf(location, result.issues));
}

/** Validates path parameters: a value that does not fit names nothing the user has, so 404. */
export function parsePath<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw notFound();
}

type ParamsSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/**
 * The named parameters of a URL's query string. A name given twice is refused (400) rather than one of the
 * values picked: a proxy, a cache or a log may have taken the other one.
 */
export function queryParams(url: URL, schema: ParamsSchema): Record<string, string> {
  const { values, repeated } = namedParams(url, schema);
  if (repeated.length > 0) {
    throw invalidRequest('The query string is invalid.', repeated.map((name) => ({ location: 'query', path: [name], message: 'must be given once' })));
  }
  return values;
}

/**
 * The path parameters of a request: Vercel hands a route's dynamic segments (`{repo_id}` of `template`) to
 * the function as query parameters. A parameter given twice, or one whose query value disagrees with the
 * segment in the path, names nothing: 404, never the query's value in place of the path's.
 */
export function pathParams(url: URL, schema: ParamsSchema, template: string): Record<string, string> {
  const { values, repeated } = namedParams(url, schema);
  if (repeated.length > 0) throw notFound();
  const segments = segmentsOf(url.pathname, template);
  if (segments !== null) {
    for (const [name, value] of Object.entries(segments)) {
      if (name in values && values[name] !== value) throw notFound();
    }
  }
  return values;
}

function namedParams(url: URL, schema: ParamsSchema): { values: Record<string, string>; repeated: string[] } {
  const values: Record<string, string> = {};
  const repeated: string[] = [];
  for (const key of Object.keys(schema.entries)) {
    const all = url.searchParams.getAll(key);
    if (all.length > 1) repeated.push(key);
    if (all[0] !== undefined) values[key] = all[0];
  }
  return { values, repeated };
}

/**
 * The dynamic segments of `pathname` when it has the template's shape (`/api/x/{id}` and `/api/x/abc`), else
 * null (a platform that rewrote the path to its file name, `/api/x/[id]`).
 */
function segmentsOf(pathname: string, template: string): Record<string, string> | null {
  const parts = (pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname).split('/');
  const names = template.split('/');
  if (parts.length !== names.length) return null;
  const segments: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const part = parts[i] ?? '';
    const dynamic = /^\{(\w+)\}$/.exec(name)?.[1];
    if (dynamic === undefined) {
      if (part !== name) return null;
    } else {
      segments[dynamic] = decodeSegment(part);
    }
  }
  return segments;
}

/** As the router decodes a segment: percent-decoded, or as is when the encoding is broken. */
function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

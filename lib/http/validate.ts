import * as v from 'valibot';
import { invalidRequest, notFound, type InputIssue } from './errors.js';

const MAX_ISSUES = 20;
const MAX_MESSAGE_LENGTH = 200;

function issuesOf(location: InputIssue['location'], issues: readonly v.BaseIssue<unknown>[]): InputIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => ({
    location,
    path: (issue.path ?? []).map((item) => (typeof item.key === 'number' ? item.key : String(item.key))),
    message: issue.message.length > MAX_MESSAGE_LENGTH ? `${issue.message.slice(0, MAX_MESSAGE_LENGTH)}…` : issue.message,
  }));
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

/** The named parameters of a URL's query string (dynamic path segments arrive there on Vercel). */
export function searchParamsFor(url: URL, schema: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of Object.keys(schema.entries)) {
    const value = url.searchParams.get(key);
    if (value !== null) values[key] = value;
  }
  return values;
}

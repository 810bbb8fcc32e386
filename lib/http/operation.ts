import type * as v from 'valibot';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Schema = v.GenericSchema;
/** Parameters (path or query) are objects of named string values. */
export type ParamsSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
/** Error statuses an operation may answer besides 500 (and 401 for authenticated operations). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 502 | 503 | 507;

/**
 * One endpoint of the API as data: the handler validates with these schemas and the OpenAPI document is
 * generated from them, so the two cannot disagree.
 */
export interface Operation {
  operationId: string;
  method: Method;
  /** OpenAPI path template, e.g. `/api/rule-settings/{rule_id}`; its file is `api/rule-settings/[rule_id].ts`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Requires a bearer token. */
  auth: boolean;
  /** Path parameters; a value failing this schema names nothing: 404. */
  params?: ParamsSchema;
  /** Query parameters; a value failing this schema is a 400. */
  query?: ParamsSchema;
  /** JSON request body; failing this schema is a 400. */
  body?: Schema;
  /**
   * The body as the raw text the client sent, up to `limitBytes` (webhooks, whose signature covers the exact
   * bytes); the handler gets it in `body` as a string. Exclusive with `body`.
   */
  rawBody?: { limitBytes: number };
  /** 200 JSON body, or null for 204 No Content. */
  response: Schema | null;
  errors: readonly ErrorStatus[];
}

export function defineOperation<const O extends Operation>(operation: O): O {
  return operation;
}

export type InputOf<S> = S extends Schema ? v.InferOutput<S> : undefined;
export type ResultOf<O extends Operation> = O['response'] extends Schema ? v.InferInput<O['response']> : void;

// Production adapter: Supabase's REST API (PostgREST) through `.rpc()` of PostgREST's own client (the one
// supabase-js wraps; the server needs neither its auth nor its realtime client, which wants a WebSocket
// Node 20 lacks), with the service-role key, so the server functions run as service_role. No session
// handling: the API is stateless.

import { PostgrestClient } from '@supabase/postgrest-js';
import { DatabaseError, kindOfSqlState, type DatabaseErrorKind } from './errors.js';
import type { Database } from './port.js';

export interface SupabaseOptions {
  url: string;
  serviceRoleKey: string;
  /** Upper bound for one call, network included. */
  timeoutMs?: number;
  /** Replaces global fetch (tests, instrumentation). */
  fetch?: typeof fetch;
}

export class SupabaseDatabase implements Database {
  private readonly client: PostgrestClient;
  private readonly timeoutMs: number;

  constructor(options: SupabaseOptions) {
    this.client = new PostgrestClient(`${options.url.replace(/\/+$/, '')}/rest/v1`, {
      headers: { apikey: options.serviceRoleKey, Authorization: `Bearer ${options.serviceRoleKey}` },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async call<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T> {
    const { data, error, status } = await this.client
      .rpc(fn, { ...args })
      .abortSignal(AbortSignal.timeout(this.timeoutMs));
    if (error) {
      const code = typeof error.code === 'string' && error.code !== '' ? error.code : undefined;
      throw new DatabaseError(kindOfPostgrestFailure(code, status), fn, { sqlState: code, cause: error });
    }
    return (data ?? null) as T;
  }

  async close(): Promise<void> {
    // Nothing to release: every call is a stateless HTTP request.
  }
}

/**
 * PostgREST passes SQLSTATEs through as `code` and adds its own PGRSTxxx codes
 * (https://docs.postgrest.org/en/stable/references/errors.html); a failure with no response at all
 * (network, timeout) has status 0 and no code.
 */
export function kindOfPostgrestFailure(code: string | undefined, status: number): DatabaseErrorKind {
  // PGRST000-003: PostgREST could not reach the database or get a pooled connection in time.
  if (code !== undefined && /^PGRST00[0-3]$/.test(code)) return 'unavailable';
  if (code !== undefined && !code.startsWith('PGRST')) return kindOfSqlState(code);
  if (status === 0 || status === 429 || status === 502 || status === 503 || status === 504 || status === 520) {
    return 'unavailable';
  }
  return 'internal';
}

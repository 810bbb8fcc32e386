// The one port the server talks to the database through. `call` runs one server function (see
// supabase/migrations and lib/db/README.md) with named arguments -- the SQL parameter names, as PostgREST
// takes them -- and resolves to the JSON it returns (null for SQL null). Failures reject with DatabaseError.

export interface Database {
  call<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T>;
  close(): Promise<void>;
}

/** A transaction on one connection, for migrations and tests: `exec` runs a parameterless script. */
export interface SqlTransaction {
  exec(sql: string): Promise<void>;
  query<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

/** An adapter that can also run SQL directly (Postgres and PGlite, not Supabase's HTTP API). */
export interface SqlDatabase extends Database {
  /** Runs `fn` in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

// The SQL statement behind `Database.call` for the adapters that speak SQL (Postgres, PGlite).

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Builds `select public.<fn>(p_a => $1, …) as result` for the arguments that are not undefined (PostgREST
 * drops those too), with values serialized as the driver should send them: objects and arrays as JSON text.
 */
export function functionCallStatement(
  fn: string,
  args: Readonly<Record<string, unknown>>,
): { text: string; values: unknown[] } {
  if (!IDENTIFIER.test(fn)) throw new TypeError(`Not a function name: ${JSON.stringify(fn)}`);
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (!IDENTIFIER.test(name)) throw new TypeError(`Not a parameter name: ${JSON.stringify(name)}`);
    values.push(serialize(value));
    names.push(`${name} => $${values.length}`);
  }
  return { text: `select public.${fn}(${names.join(', ')}) as result`, values };
}

function serialize(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return JSON.stringify(value);
  return value;
}

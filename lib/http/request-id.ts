import { randomUUID } from 'node:crypto';

/** An incoming id is kept when it is short and plain, so a proxy's id links the logs; otherwise a new one. */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestIdOf(request: Request): string {
  const incoming = request.headers.get('x-request-id');
  return incoming !== null && SANE_ID.test(incoming) ? incoming : randomUUID();
}

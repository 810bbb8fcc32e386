import { invalidRequest, payloadTooLarge } from './errors.js';

/** Rejects a declared body over the limit before anything is read. */
export function checkContentLength(request: Request, limitBytes: number): void {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limitBytes) throw payloadTooLarge(limitBytes);
}

/**
 * Reads and parses a JSON body, counting bytes as they stream in: a body without (or lying about)
 * `Content-Length` is cut off at the limit too.
 */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const text = await readTextBody(request, limitBytes);
  let prototypeKey: string | null = null;
  let parsed: unknown;
  try {
    // A key that names an object's prototype machinery is refused wherever it is, not dropped by a schema
    // that ignores unknown keys (rule options): the client learns that nothing of it was kept.
    parsed = JSON.parse(text, function (this: unknown, key: string, value: unknown) {
      if (PROTOTYPE_KEYS.has(key) && !Array.isArray(this)) prototypeKey ??= key;
      return value;
    }) as unknown;
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
  if (prototypeKey !== null) throw invalidRequest(`The request body has the key "${prototypeKey}", which no request takes.`);
  return parsed;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Reads a non-empty UTF-8 body, bounded the same way as `readJsonBody`. */
export async function readTextBody(request: Request, limitBytes: number): Promise<string> {
  checkContentLength(request, limitBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => undefined);
        throw payloadTooLarge(limitBytes);
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw invalidRequest('A JSON request body is required.');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalidRequest('The request body is not valid UTF-8.');
  }
}

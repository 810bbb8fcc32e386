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
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
}

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

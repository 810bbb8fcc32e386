import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/**
 * Serves the built web client from `public/` as Vercel does with `cleanUrls`: `/` is `index.html`, `/x` is
 * `x` or `x.html` or `x/index.html`. Only GET and HEAD; nothing outside the folder (the path is decoded,
 * normalized and checked to stay inside); dotfiles are never served. Null when no file matches.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** The security headers of every page (vercel.json sets the same ones in a deployment). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https://*.supabase.co; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function staticFiles(dir: string): (request: Request) => Promise<Response | null> {
  const root = normalize(dir + sep);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url).pathname);
    } catch {
      return null;
    }
    if (pathname.includes('\0') || pathname.split('/').some((part) => part.startsWith('.'))) return null;
    const base = normalize(join(root, pathname));
    if (!base.startsWith(root) && `${base}${sep}` !== root) return null;
    const candidates = pathname.endsWith('/') ? [join(base, 'index.html')] : [base, `${base}.html`, join(base, 'index.html')];
    for (const file of candidates) {
      if (!file.startsWith(root)) continue;
      const info = await stat(file).catch(() => null);
      if (info === null || !info.isFile()) continue;
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      // Hashed assets never change; pages and config are revalidated.
      const cache = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      return new Response(request.method === 'HEAD' ? null : body, {
        status: 200,
        headers: { 'content-type': type, 'cache-control': cache, ...PAGE_HEADERS },
      });
    }
    return null;
  };
}

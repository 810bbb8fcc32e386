import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { methodNotAllowedResponse, noRouteResponse, type Handler } from '../http/endpoint.js';

/**
 * Vercel's file routing for `api/`, for the local server and tests: each file is a function at its path
 * without the extension (`index` names its folder), `[name]` segments match one path segment and reach the
 * handler as the query parameter `name` (a value already in the query string wins, as on Vercel), files and
 * folders starting with `_` or `.` are not routes, static segments take precedence over dynamic ones, one
 * trailing slash is tolerated. Unknown paths are 404; methods a file does not export are 405.
 */

const EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs)$/;
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export interface Route {
  /** Path of the file relative to the project root, with forward slashes (`api/rule-settings/[rule_id].ts`). */
  file: string;
  /** The URL path Vercel serves it at, dynamic segments as `[name]` (`/api/rule-settings/[rule_id]`). */
  path: string;
  segments: { name: string; dynamic: boolean }[];
}

/** The route of one file under `api/`, or null when Vercel would not make it a function. */
export function routeOf(file: string): Route | null {
  const parts = file.split('/');
  if (parts[0] !== 'api' || !EXTENSIONS.test(file) || file.endsWith('.d.ts')) return null;
  if (parts.some((part) => part.startsWith('_') || part.startsWith('.'))) return null;
  const last = (parts.pop() ?? '').replace(EXTENSIONS, '');
  if (last !== 'index') parts.push(last);
  const segments = parts.map((part) => {
    const dynamic = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/.exec(part);
    return dynamic ? { name: dynamic[1] ?? part, dynamic: true } : { name: part, dynamic: false };
  });
  return { file, path: `/${parts.join('/')}`, segments };
}

/** Every route file under `<root>/api`. */
export async function discoverRoutes(root: string): Promise<Route[]> {
  const entries = await readdir(join(root, 'api'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => routeOf(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')))
    .filter((route): route is Route => route !== null)
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Static before dynamic, segment by segment: `/api/repos/sync` beats `/api/repos/[id]`. */
function specificity(route: Route): string {
  return route.segments.map((segment) => (segment.dynamic ? '1' : '0')).join('');
}

export function matchRoute(routes: readonly Route[], pathname: string): { route: Route; params: Record<string, string> } | null {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const parts = trimmed.split('/').slice(1);
  const candidates = routes.filter((route) => route.segments.length === parts.length).sort((a, b) => specificity(a).localeCompare(specificity(b)));
  for (const route of candidates) {
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.dynamic) return segment.name === part;
      if (part === '') return false;
      params[segment.name] = safeDecode(part);
      return true;
    });
    if (matches) return { route, params };
  }
  return null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

type RouteModule = Partial<Record<(typeof HTTP_METHODS)[number], Handler>>;

/** The methods a route module exports, as `Allow` lists them. */
export function exportedMethods(module: Record<string, unknown>): string[] {
  return HTTP_METHODS.filter((method) => typeof module[method] === 'function');
}

/** Dispatches requests to the real route modules under `root`, loading each module on first use. */
export function createRouter(root: string, routes: readonly Route[]): (request: Request) => Promise<Response> {
  const modules = new Map<string, Promise<RouteModule>>();
  const load = (route: Route) => {
    let module = modules.get(route.file);
    if (module === undefined) {
      module = import(pathToFileURL(join(root, route.file)).href) as Promise<RouteModule>;
      modules.set(route.file, module);
    }
    return module;
  };

  return async (request) => {
    const url = new URL(request.url);
    const match = matchRoute(routes, url.pathname);
    if (match === null) return noRouteResponse(request);
    const module = await load(match.route);
    const handler = module[request.method as keyof RouteModule];
    if (typeof handler !== 'function') return methodNotAllowedResponse(request, match.route.path, exportedMethods(module));
    for (const [name, value] of Object.entries(match.params)) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, value);
    }
    return handler(url.href === request.url ? request : new Request(url, request));
  };
}

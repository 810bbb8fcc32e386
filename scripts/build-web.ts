// `npm run build:web`: builds everything public/ serves, in the dev server (npm run dev runs this first) and
// on Vercel (vercel.json's buildCommand): the single-page client (web/, with Vite), one HTML page per rule at
// /rules/<id> from lib/engine/rules/<id>.md (markdown-it, raw HTML in the docs disabled), the rules index at
// /rules, the OpenAPI viewer at /docs/api (Swagger UI, served from here: no CDN), and /config.json from
// SUPABASE_URL, SUPABASE_ANON_KEY and GITHUB_APP_SLUG. Everything it writes is git-ignored; public/robots.txt
// is the one committed file there.

import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { build } from 'vite';
import { CATALOG } from '../lib/engine/catalog.js';
import { connectSources, withConnectPolicy } from './web-csp.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PUBLIC = join(ROOT, 'public');
const KEEP = new Set(['robots.txt']);

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A static page sharing the client's look (the stylesheet is written next to the rule pages). */
function page(title: string, body: string, head = ''): string {
  return withConnectPolicy(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Chainbreaker</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/pages.css">
${head}<script src="/static/header.js" defer></script>
</head>
<body>
<header class="top"><a class="brand" href="/">Chainbreaker</a><nav aria-label="Main"><a href="/#/">Repositories</a><a href="/#/attack-paths">Attack paths</a><a href="/#/settings">Rule settings</a><a href="/rules">Rules</a><a href="/docs/api">API</a></nav><div class="who" id="who"></div></header>
<main id="main">
${body}
</main>
</body>
</html>
`, process.env.SUPABASE_URL);
}

const PAGES_CSS = `:root{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1b1f24;background:#f7f8fa;line-height:1.5}
body{margin:0}a{color:#0b5cad}:focus-visible{outline:3px solid #1f6feb;outline-offset:2px}
.top{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center;padding:10px 24px;background:#12161c}
.top a{color:#e6edf3;text-decoration:none}.top .brand{font-weight:700;font-size:1.1rem}.top nav{display:flex;flex-wrap:wrap;gap:4px 16px}
main{max-width:900px;margin:0 auto;padding:20px 24px 48px}
main.wide{max-width:1200px}
pre{background:#f0f2f5;border:1px solid #d0d7de;border-radius:6px;padding:12px;overflow-x:auto}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
pre code{overflow-wrap:normal}
table{border-collapse:collapse;background:#fff}th,td{border:1px solid #d0d7de;padding:6px 10px;text-align:left;vertical-align:top}
.rule-list td:first-child{white-space:nowrap}
@media (max-width:640px){main{padding:14px 12px 40px}.top{padding:10px 12px}table{display:block;overflow-x:auto}.top .who{margin-left:0}}
.top .who{margin-left:auto;display:flex;gap:12px;align-items:center;color:#b1bac4}
.top .who button{font:inherit;background:none;border:none;padding:0;color:#e6edf3;text-decoration:underline;cursor:pointer}
@media (prefers-color-scheme:dark){:root{color:#e6edf3;background:#0d1117;color-scheme:dark}a{color:#6cb6ff}
.top{background:#010409;border-bottom:1px solid #3d444d}pre{background:#1c232c;border-color:#3d444d}
table{background:#151b23}th,td{border-color:#3d444d}}
`;

/**
 * Swagger UI's method badges are white on light colours (GET's #61affe is 2.5:1): darker ones, 4.5:1 or more
 * against the white text, and the page's own look for the rest.
 */
const SWAGGER_CSS = `.swagger-ui .opblock .opblock-summary-method{color:#fff;text-shadow:none;min-width:84px}
.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#0b5cad}
.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#1a7f37}
.swagger-ui .opblock.opblock-put .opblock-summary-method{background:#8a5300}
.swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#b42318}
.swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#6f42c1}
.swagger-ui .opblock.opblock-options .opblock-summary-method{background:#57606a}
.swagger-ui .opblock .opblock-summary-description{color:#1b1f24;font-size:14px}
.swagger-ui .opblock .opblock-summary-path{color:#1b1f24}
.swagger-ui .info .title small pre,.swagger-ui .info .title small.version-stamp{background:#1a7f37}
.swagger-ui .info .title small .version-stamp pre{color:#fff}
@media (prefers-color-scheme:dark){#swagger{background:#f7f8fa;color:#1b1f24;border-radius:8px;padding:4px 12px}}
`;

/**
 * The signed-in header of the static pages: who is signed in (the development user's token kept for the tab,
 * or the Supabase session) and Sign out, as the client's header has; else "Sign in". Plain DOM, text only.
 */
const HEADER_JS = `(() => {
  const who = document.getElementById('who');
  if (!who) return;
  const claims = (token) => { try { return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))); } catch { return {}; } };
  let label = null;
  let signOut = null;
  const dev = sessionStorage.getItem('chainbreaker.devToken');
  if (dev) {
    const c = claims(dev);
    if (!(c.exp && c.exp * 1000 < Date.now())) { label = c.email || 'development user'; signOut = () => sessionStorage.removeItem('chainbreaker.devToken'); }
  }
  for (let i = 0; label === null && i < localStorage.length; i += 1) {
    const key = localStorage.key(i) || '';
    if (!/^sb-.*-auth-token$/.test(key)) continue;
    try {
      const s = JSON.parse(localStorage.getItem(key) || '{}');
      if (s && s.user && !(s.expires_at && s.expires_at * 1000 < Date.now())) { label = s.user.email || (s.user.user_metadata && s.user.user_metadata.user_name) || 'signed in'; signOut = () => localStorage.removeItem(key); }
    } catch {}
  }
  if (label === null) {
    const a = document.createElement('a'); a.href = '/'; a.textContent = 'Sign in'; who.append(a); return;
  }
  const span = document.createElement('span'); span.textContent = label; span.className = 'signed-in'; who.append(span);
  const button = document.createElement('button'); button.type = 'button'; button.textContent = 'Sign out';
  button.addEventListener('click', () => { signOut(); location.assign('/'); });
  who.append(button);
})();
`;

async function clean(): Promise<void> {
  await mkdir(PUBLIC, { recursive: true });
  for (const entry of await readdir(PUBLIC)) {
    if (!KEEP.has(entry)) await rm(join(PUBLIC, entry), { recursive: true, force: true });
  }
}

async function buildClient(): Promise<void> {
  await build({ configFile: join(ROOT, 'web/vite.config.ts'), logLevel: 'warn' });
  const index = join(PUBLIC, 'index.html');
  await writeFile(index, withConnectPolicy(await readFile(index, 'utf8'), process.env.SUPABASE_URL));
}

async function buildRulePages(): Promise<void> {
  // html: false: a rule doc's raw HTML is shown as text, never run. Links to other rule docs become their pages.
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const href = token?.attrGet('href');
    const local = href ? /^(?:\.\/)?([a-z0-9-]+)\.md(#.*)?$/.exec(String(href)) : null;
    if (token && local) token.attrSet('href', `/rules/${local[1] ?? ''}${local[2] ?? ''}`);
    return defaultLink(tokens, idx, options, env, self);
  };
  // A code block wider than the page scrolls: it must be reachable by keyboard to scroll it.
  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) =>
    (defaultFence ? defaultFence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options)).replace(/^<pre>/, '<pre tabindex="0">');
  await mkdir(join(PUBLIC, 'rules'), { recursive: true });
  await mkdir(join(PUBLIC, 'static'), { recursive: true });
  await writeFile(join(PUBLIC, 'static/pages.css'), PAGES_CSS);
  await writeFile(join(PUBLIC, 'static/header.js'), HEADER_JS);
  for (const rule of CATALOG) {
    const source = await readFile(join(ROOT, 'lib/engine/rules', `${rule.id}.md`), 'utf8');
    await writeFile(join(PUBLIC, 'rules', `${rule.id}.html`), page(rule.title, `<article>\n${md.render(source)}</article>\n<p><a href="/rules">All rules</a></p>`));
  }
  const rows = CATALOG.map(
    (r) => `<tr><td><a href="/rules/${r.id}"><code>${escape(r.id)}</code></a></td><td>${escape(r.default_severity)}</td><td>${escape(r.title)}</td></tr>`,
  ).join('\n');
  await writeFile(
    join(PUBLIC, 'rules.html'),
    page('Rules', `<h1>Rules</h1>\n<p>${CATALOG.length} rules.</p>\n<table class="rule-list"><thead><tr><th>Rule</th><th>Severity</th><th>Title</th></tr></thead><tbody>\n${rows}\n</tbody></table>`),
  );
}

async function buildApiViewer(): Promise<void> {
  const dist = join(ROOT, 'node_modules/swagger-ui-dist');
  await mkdir(join(PUBLIC, 'docs'), { recursive: true });
  await mkdir(join(PUBLIC, 'static/swagger'), { recursive: true });
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) await copyFile(join(dist, file), join(PUBLIC, 'static/swagger', file));
  await writeFile(join(PUBLIC, 'static/swagger/readable.css'), SWAGGER_CSS);
  await writeFile(
    join(PUBLIC, 'static/swagger/init.js'),
    `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger', deepLinking: true, tryItOutEnabled: false });\n`,
  );
  await writeFile(
    join(PUBLIC, 'docs/api.html'),
    page(
      'API reference',
      `<h1>API reference</h1>\n<p>The OpenAPI document itself: <a href="/api/openapi.json">/api/openapi.json</a>.</p>\n<div id="swagger"></div>\n<script src="/static/swagger/swagger-ui-bundle.js"></script>\n<script src="/static/swagger/init.js"></script>`,
      '<link rel="stylesheet" href="/static/swagger/swagger-ui.css">\n<link rel="stylesheet" href="/static/swagger/readable.css">\n',
    ).replace('<main id="main">', '<main id="main" class="wide">'),
  );
}

async function writeConfig(): Promise<void> {
  const slug = process.env.GITHUB_APP_SLUG;
  const config = {
    mode: process.env.SUPABASE_URL && process.env.SUPABASE_ANON_KEY ? 'supabase' : 'embedded',
    devSignIn: false,
    connectUrl: slug ? `https://github.com/apps/${encodeURIComponent(slug)}/installations/new` : null,
    // The App's user authorization (GITHUB_APP_CLIENT_ID on the API): "Use my GitHub access".
    memberAccess: Boolean(process.env.GITHUB_APP_CLIENT_ID),
    supabaseUrl: process.env.SUPABASE_URL ?? null,
    supabaseAnonKey: process.env.SUPABASE_ANON_KEY ?? null,
  };
  await writeFile(join(PUBLIC, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

try {
  connectSources(process.env.SUPABASE_URL);
} catch (error) {
  console.error(`build:web: ${(error as Error).message}`);
  process.exit(1);
}
const started = performance.now();
await clean();
await buildClient();
await Promise.all([buildRulePages(), buildApiViewer(), writeConfig()]);
console.log(`Built the web client, ${CATALOG.length} rule pages and the API viewer into public/ in ${Math.round(performance.now() - started)} ms.`);

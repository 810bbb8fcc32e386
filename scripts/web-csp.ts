// The pages' own content security policy, beside the one vercel.json (and the dev server) sends. vercel.json is
// static, so its header allows any Supabase project (`https://*.supabase.co`); every policy a page has applies,
// so this `<meta>` policy, written at build time from SUPABASE_URL, narrows where the client may connect to
// this origin and the one configured project.

/** `connect-src` for the configured Supabase project (its origin only), or this origin alone without one. */
export function connectSources(supabaseUrl: string | undefined): string {
  if (supabaseUrl === undefined || supabaseUrl === '') return "'self'";
  let url: URL;
  try {
    url = new URL(supabaseUrl);
  } catch {
    throw new Error(`SUPABASE_URL is not a URL: set it to the project's https:// address (Settings → API), e.g. https://abcd.supabase.co`);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new Error(`SUPABASE_URL must be an https:// address (http:// only on localhost), not ${url.protocol}`);
  }
  return `'self' ${url.origin}`;
}

/** The `<meta>` element of that policy. */
export function connectPolicyMeta(supabaseUrl: string | undefined): string {
  return `<meta http-equiv="Content-Security-Policy" content="connect-src ${connectSources(supabaseUrl)}">`;
}

/** `html` with the policy right after its `<meta charset>` (before anything that could connect). */
export function withConnectPolicy(html: string, supabaseUrl: string | undefined): string {
  const at = html.search(/<meta charset=[^>]*>/i);
  if (at < 0) throw new Error('a built page has no <meta charset>: cannot place its content security policy');
  const end = html.indexOf('>', at) + 1;
  return `${html.slice(0, end)}\n${connectPolicyMeta(supabaseUrl)}${html.slice(end)}`;
}

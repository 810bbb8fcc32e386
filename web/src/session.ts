import type { TableClient } from './data/reads.js';
import type { ClientConfig } from './data/types.js';

/**
 * Who is signed in, and the bearer token of every API call. Two ways in: the development user of
 * `npm run dev` (a token from the dev server's loopback-only route, kept for this tab), or Supabase Auth with
 * the GitHub provider (supabase-js, loaded only when configured, keeps and refreshes the session).
 */
export interface Session {
  label: string;
  token(): Promise<string | null>;
  signOut(): Promise<void>;
  /** The Supabase client for direct reads; null in the embedded mode. */
  tables: TableClient | null;
}

const DEV_KEY = 'chainbreaker.devToken';
const DEFAULT_CONFIG: ClientConfig = { mode: 'embedded', devSignIn: false, connectUrl: null, supabaseUrl: null, supabaseAnonKey: null };

export async function loadConfig(): Promise<ClientConfig> {
  try {
    const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
    if (!response.ok) return DEFAULT_CONFIG;
    return { ...DEFAULT_CONFIG, ...((await response.json()) as Partial<ClientConfig>) };
  } catch {
    return DEFAULT_CONFIG;
  }
}

/** The token's payload, unverified (only to show who is signed in and whether it expired). */
function claims(token: string): { email?: string; exp?: number } {
  try {
    const part = token.split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { email?: string; exp?: number };
  } catch {
    return {};
  }
}

function devSession(token: string): Session {
  return {
    label: claims(token).email ?? 'development user',
    token: async () => token,
    signOut: async () => sessionStorage.removeItem(DEV_KEY),
    tables: null,
  };
}

export async function signInAsDevUser(): Promise<Session> {
  const response = await fetch('/__dev/token', { method: 'POST', headers: { 'x-requested-with': 'chainbreaker' } });
  if (!response.ok) throw new Error('The development sign-in is not available: it exists only in npm run dev with the development secret.');
  const { access_token: token } = (await response.json()) as { access_token: string };
  sessionStorage.setItem(DEV_KEY, token);
  return devSession(token);
}

type SupabaseClient = Awaited<ReturnType<typeof supabaseClient>>;
let client: Promise<SupabaseClient> | null = null;
async function supabaseClient(config: ClientConfig) {
  const { createClient } = await import('@supabase/supabase-js');
  return createClient(config.supabaseUrl ?? '', config.supabaseAnonKey ?? '', { auth: { persistSession: true, detectSessionInUrl: true, flowType: 'pkce' } });
}
function supabase(config: ClientConfig): Promise<SupabaseClient> {
  client ??= supabaseClient(config);
  return client;
}

export async function signInWithGitHub(config: ClientConfig): Promise<void> {
  const sb = await supabase(config);
  const { error } = await sb.auth.signInWithOAuth({ provider: 'github', options: { redirectTo: `${location.origin}/` } });
  if (error) throw new Error(`GitHub sign-in failed: ${error.message}`);
}

/** The session this tab already has, if any. */
export async function restoreSession(config: ClientConfig): Promise<Session | null> {
  if (config.supabaseUrl && config.supabaseAnonKey) {
    const sb = await supabase(config);
    const { data } = await sb.auth.getSession();
    if (data.session === null) return null;
    return {
      label: data.session.user.email ?? (data.session.user.user_metadata as { user_name?: string }).user_name ?? 'signed in',
      token: async () => (await sb.auth.getSession()).data.session?.access_token ?? null,
      signOut: async () => {
        await sb.auth.signOut();
      },
      tables: sb as unknown as TableClient,
    };
  }
  const token = sessionStorage.getItem(DEV_KEY);
  if (token === null) return null;
  const exp = claims(token).exp;
  if (exp !== undefined && exp * 1000 < Date.now()) {
    sessionStorage.removeItem(DEV_KEY);
    return null;
  }
  return devSession(token);
}

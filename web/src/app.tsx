import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api, ApiError } from './data/api.js';
import { ApiReads, SupabaseReads, type Reads } from './data/reads.js';
import type { ClientConfig } from './data/types.js';
import { loadConfig, restoreSession, signInAsDevUser, signInWithGitHub, type Session } from './session.js';
import { AttackPathsView } from './views/attack-paths.js';
import { FindingsView } from './views/findings.js';
import { RepositoriesView } from './views/repositories.js';
import { RuleSettingsView } from './views/rule-settings.js';
import { Notice, errorText } from './views/common.js';

export interface Services {
  api: Api;
  reads: Reads;
  config: ClientConfig;
}

type Route = { view: 'repos' } | { view: 'findings'; repoId: string; rule: string | null; status: 'open' | 'dismissed' } | { view: 'attack-paths' } | { view: 'settings' };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'repos' && parts[1]) {
    return { view: 'findings', repoId: decodeURIComponent(parts[1]), rule: params.get('rule'), status: params.get('status') === 'dismissed' ? 'dismissed' : 'open' };
  }
  if (parts[0] === 'attack-paths') return { view: 'attack-paths' };
  if (parts[0] === 'settings') return { view: 'settings' };
  return { view: 'repos' };
}

const PENDING_INSTALLATION = 'chainbreaker.pendingInstallation';

/** The installation id GitHub's setup URL came back with, kept until the user is signed in to link it. */
function takeInstallationParam(): void {
  const params = new URLSearchParams(location.search);
  const id = params.get('installation_id');
  if (id === null) return;
  sessionStorage.setItem(PENDING_INSTALLATION, id);
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
}

const PENDING_AUTHORIZATION = 'chainbreaker.pendingAuthorization';

/**
 * The code and state GitHub's authorize page came back with (the App's user authorization), kept until the
 * user is signed in to complete it. Taken before the Supabase client reads the address: its own sign-in
 * redirect carries a `code` too, but never a `state`.
 */
function takeAuthorizationParams(): void {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  const state = params.get('state');
  if (code === null || state === null) return;
  sessionStorage.setItem(PENDING_AUTHORIZATION, JSON.stringify({ code, state }));
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
}

function explainLinkError(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) {
    return `GitHub says this installation is not yours to link: it must be on your own GitHub account or on an organization you own. As a member of the organization, choose "Use my GitHub access" to see the repositories you can access there. (${error.message})`;
  }
  if (error instanceof ApiError && error.status === 400) return 'GitHub came back without a valid installation id. Try "Connect GitHub" again.';
  return `The installation could not be linked: ${errorText(error)}`;
}

export function App() {
  const [config, setConfig] = useState<ClientConfig | null>(null);
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  const [linkNotice, setLinkNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [signInError, setSignInError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    takeInstallationParam();
    takeAuthorizationParams();
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    void (async () => {
      const loaded = await loadConfig();
      setConfig(loaded);
      setSession(await restoreSession(loaded).catch(() => null));
    })();
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const services = useMemo<Services | null>(() => {
    if (!config || !session) return null;
    const api = new Api(
      () => session.token(),
      undefined,
      '',
      // A 401 means the session is over (its GitHub authorization was revoked, or it expired): sign out.
      (message) => {
        void session.signOut().then(() => {
          setSession(null);
          setSignInError(message);
        });
      },
    );
    return { api, config, reads: session.tables ? new SupabaseReads(session.tables) : new ApiReads(api) };
  }, [config, session]);

  // Link the installation GitHub redirected with, once signed in.
  useEffect(() => {
    if (!services) return;
    const pending = sessionStorage.getItem(PENDING_INSTALLATION);
    if (pending === null) return;
    sessionStorage.removeItem(PENDING_INSTALLATION);
    services.api
      .link(pending)
      .then((linked) => {
        setLinkNotice({ kind: 'ok', text: `Connected the GitHub ${linked.account_type === 'Organization' ? 'organization' : 'account'} ${linked.account} (installation ${linked.installation_id}).` });
        setVersion((v) => v + 1);
      })
      .catch((error: unknown) => setLinkNotice({ kind: 'error', text: explainLinkError(error) }));
  }, [services]);

  // Complete the App's user authorization GitHub redirected with, once signed in.
  useEffect(() => {
    if (!services) return;
    const pending = sessionStorage.getItem(PENDING_AUTHORIZATION);
    if (pending === null) return;
    sessionStorage.removeItem(PENDING_AUTHORIZATION);
    let parsed: { code?: unknown; state?: unknown };
    try {
      parsed = JSON.parse(pending) as { code?: unknown; state?: unknown };
    } catch {
      return;
    }
    if (typeof parsed.code !== 'string' || typeof parsed.state !== 'string') return;
    services.api
      .completeAuthorization(parsed.code, parsed.state)
      .then((done) => {
        setLinkNotice({ kind: 'ok', text: `Your GitHub access (${done.github_login}) now lists every repository you can reach in the organizations where the App is installed.` });
        setVersion((v) => v + 1);
      })
      .catch((error: unknown) => setLinkNotice({ kind: 'error', text: `Your GitHub access could not be used: ${errorText(error)}` }));
  }, [services]);

  // A success notice belongs to the view it appeared on: it does not follow the user to the next one.
  useEffect(() => {
    setLinkNotice((notice) => (notice?.kind === 'ok' ? null : notice));
  }, [route.view]);

  useEffect(() => {
    const titles = { repos: 'Repositories', findings: 'Findings', 'attack-paths': 'Attack paths', settings: 'Rule settings' } as const;
    document.title = `${titles[route.view]} · Chainbreaker`;
  }, [route]);

  if (config === null || session === undefined) {
    return (
      <main id="main" class="loading" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }

  if (session === null) {
    return (
      <main id="main" class="signin">
        <h1>Chainbreaker</h1>
        <p class="lead">Finds the weaknesses in your GitHub Actions pipelines, and the attack paths they form together, before attackers do.</p>
        {signInError && <Notice kind="error">{signInError}</Notice>}
        <div class="actions">
          {config.supabaseUrl && config.supabaseAnonKey && (
            <button class="primary" type="button" onClick={() => signInWithGitHub(config).catch((e: unknown) => setSignInError(errorText(e)))}>
              Sign in with GitHub
            </button>
          )}
          {config.devSignIn && (
            <button class="primary" type="button" onClick={() => signInAsDevUser().then(setSession, (e: unknown) => setSignInError(errorText(e)))}>
              Sign in as the development user
            </button>
          )}
        </div>
        {!config.devSignIn && !(config.supabaseUrl && config.supabaseAnonKey) && (
          <Notice kind="error">Sign-in is not configured: set SUPABASE_URL and SUPABASE_ANON_KEY when building the client (see docs/web-client.md).</Notice>
        )}
        <p class="muted">
          <a href="/rules">The rules</a> · <a href="/docs/api">API reference</a>
        </p>
      </main>
    );
  }

  const current = route.view === 'findings' ? 'repos' : route.view;
  const nav = [
    { id: 'repos', href: '#/', label: 'Repositories' },
    { id: 'attack-paths', href: '#/attack-paths', label: 'Attack paths' },
    { id: 'settings', href: '#/settings', label: 'Rule settings' },
  ];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          Chainbreaker
        </a>
        <nav aria-label="Main">
          {nav.map((item) => (
            <a key={item.id} href={item.href} aria-current={current === item.id ? 'page' : undefined}>
              {item.label}
            </a>
          ))}
          <a href="/rules">Rules</a>
          <a href="/docs/api">API</a>
        </nav>
        <div class="who">
          <span class="muted">{session.label}</span>
          {config.memberAccess && services && (
            <button
              type="button"
              class="link"
              title="List the repositories you can access in organizations where the App is installed, through your own GitHub access"
              onClick={() => {
                services.api.authorizeUrl().then(
                  ({ url }) => location.assign(url),
                  (error: unknown) => setLinkNotice({ kind: 'error', text: `Your GitHub access is not available: ${errorText(error)}` }),
                );
              }}
            >
              Use my GitHub access
            </button>
          )}
          <button
            type="button"
            class="link"
            onClick={() => {
              // The GitHub authorization is revoked first (best effort), then the session ends.
              void (services?.api.revokeAuthorization().catch(() => undefined) ?? Promise.resolve()).then(() => session.signOut()).then(() => setSession(null));
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {linkNotice && (
          <Notice kind={linkNotice.kind} onDismiss={() => setLinkNotice(null)}>
            {linkNotice.text}
          </Notice>
        )}
        {services && route.view === 'repos' && <RepositoriesView key={version} services={services} />}
        {services && route.view === 'findings' && <FindingsView key={`${route.repoId}:${route.rule}`} services={services} repoId={route.repoId} rule={route.rule} status={route.status} />}
        {services && route.view === 'attack-paths' && <AttackPathsView services={services} />}
        {services && route.view === 'settings' && <RuleSettingsView services={services} />}
      </main>
    </>
  );
}

import type { FakeAccount, FakeInstallation, FakeRepository } from './model.js';

/**
 * REST bodies in GitHub's shapes (api.github.com's OpenAPI description: `installation`, `simple-user`,
 * `repository`, `full-repository`, `org-membership`, `basic-error`), built from the fake's state.
 */

const WEB = 'https://github.com';
const CREATED_AT = '2023-01-17T08:05:12Z';

export function userBody(api: string, account: { login: string; id: number; type: string }): Record<string, unknown> {
  const { login, id, type } = account;
  return {
    login,
    id,
    node_id: `${type === 'Organization' ? 'O' : 'U'}_kgDO${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${api}/users/${login}`,
    html_url: `${WEB}/${login}`,
    followers_url: `${api}/users/${login}/followers`,
    repos_url: `${api}/users/${login}/repos`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

export function installationBody(api: string, installation: FakeInstallation, appId: number, appSlug: string): Record<string, unknown> {
  const { account } = installation;
  return {
    id: installation.id,
    client_id: `Iv23li${appId}`,
    account: userBody(api, account),
    repository_selection: 'all',
    access_tokens_url: `${api}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${api}/installation/repositories`,
    html_url: account.type === 'Organization' ? `${WEB}/organizations/${account.login}/settings/installations/${installation.id}` : `${WEB}/settings/installations/${installation.id}`,
    app_id: appId,
    app_slug: appSlug,
    target_id: account.id,
    target_type: account.type,
    permissions: installation.permissions,
    events: ['push', 'pull_request', 'repository'],
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: installation.suspended ? '2026-01-01T00:00:00Z' : null,
  };
}

/**
 * `GET /repos/{o}/{r}` (`full-repository`): the settings' `repository` body when there is one, with the
 * fake's own identity fields on top; `security_and_analysis` only for callers with admin rights, as GitHub does.
 */
export function repositoryBody(api: string, repository: FakeRepository, options: { admin: boolean; permissions?: Record<string, boolean> }): Record<string, unknown> {
  const { owner, name, fullName } = repository;
  const stored = repository.settings.repository ?? {};
  const body: Record<string, unknown> = {
    id: repository.id,
    node_id: `R_kgDO${repository.id}`,
    name,
    full_name: fullName,
    private: repository.visibility !== 'public',
    owner: userBody(api, owner),
    html_url: `${WEB}/${fullName}`,
    description: null,
    fork: false,
    url: `${api}/repos/${fullName}`,
    hooks_url: `${api}/repos/${fullName}/hooks`,
    created_at: repository.createdAt,
    updated_at: repository.createdAt,
    pushed_at: repository.createdAt,
    size: 1024,
    language: 'TypeScript',
    archived: false,
    disabled: false,
    visibility: repository.visibility,
    default_branch: repository.defaultBranch,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    ...stored,
  };
  Object.assign(body, {
    id: repository.id,
    name,
    full_name: fullName,
    private: repository.visibility !== 'public',
    owner: userBody(api, owner),
    visibility: repository.visibility,
    default_branch: repository.defaultBranch,
    html_url: `${WEB}/${fullName}`,
    url: `${api}/repos/${fullName}`,
  });
  if (options.permissions !== undefined) body.permissions = options.permissions;
  else delete body.permissions;
  if (!options.admin) delete body.security_and_analysis;
  else if (body.security_and_analysis === undefined) {
    body.security_and_analysis = {
      secret_scanning: { status: 'disabled' },
      secret_scanning_push_protection: { status: 'disabled' },
      dependabot_security_updates: { status: 'disabled' },
    };
  }
  return body;
}

/** An item of `GET /installation/repositories` (`repository`, without admin-only fields). */
export function listedRepositoryBody(api: string, repository: FakeRepository): Record<string, unknown> {
  const body = repositoryBody(api, repository, { admin: false, permissions: { admin: false, maintain: false, push: false, triage: false, pull: true } });
  delete body.security_and_analysis;
  return body;
}

export function membershipBody(api: string, org: FakeAccount, user: { login: string; id: number }, state: string, role: string): Record<string, unknown> {
  return {
    url: `${api}/orgs/${org.login}/memberships/${user.login}`,
    state,
    role,
    organization_url: `${api}/orgs/${org.login}`,
    organization: { login: org.login, id: org.id, node_id: `O_kgDO${org.id}`, url: `${api}/orgs/${org.login}`, description: null },
    user: userBody(api, { ...user, type: 'User' }),
  };
}

/** GitHub's error body (`basic-error`). */
export function errorBody(message: string, status: number, docs = 'https://docs.github.com/rest'): Record<string, unknown> {
  return { message, documentation_url: docs, status: String(status) };
}

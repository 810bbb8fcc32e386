-- Members of an organization through their own GitHub access (issue 30). The App's user authorization (its
-- OAuth web flow) gives the service a user-to-server token: GitHub answers with it exactly which
-- installations and repositories that person can reach. The token is kept here, server-side only:
-- encrypted by the API (AES-256-GCM, a key from configuration; the database never sees it in clear), never
-- readable by browsers (no policy, every privilege revoked), and gone with the user.

create table public.github_user_authorizations (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- The GitHub account the token acts for (numeric id, as text, like installations.github_user_id).
  github_user_id text not null check (github_user_id ~ '^[0-9]{1,20}$'),
  github_login text not null check (github_login <> '' and length(github_login) <= 100),
  -- Ciphertexts (`v1:<iv>:<ciphertext>:<tag>`, base64url), bound to user_id; null once revoked.
  access_token text null check (access_token is null or length(access_token) <= 2000),
  access_expires_at timestamptz null,
  refresh_token text null check (refresh_token is null or length(refresh_token) <= 2000),
  refresh_expires_at timestamptz null,
  -- Set when GitHub said the authorization was revoked (or the user signed out): the user's sessions issued
  -- before it are refused by the endpoints that reach GitHub for them.
  revoked_at timestamptz null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index github_user_authorizations_github_user_idx on public.github_user_authorizations (github_user_id);

alter table public.github_user_authorizations enable row level security;
revoke all on table public.github_user_authorizations from public, anon, authenticated;
grant select, insert, update, delete on table public.github_user_authorizations to service_role;

-- How a user reaches an installation: `link` (the installation callback: their own account, or an
-- organization they own) or `member` (GitHub lists it for their user-to-server token; its repositories are
-- exactly those GitHub says they can access). Browsers read the column with the row (RLS as before).
alter table public.installations add column access text not null default 'link' check (access in ('link', 'member'));

-- The user's installations gain `access`.
create or replace function public.list_installations(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    json_agg(
      json_build_object(
        'installation_id', i.installation_id,
        'account_login', i.account_login,
        'account_type', i.account_type,
        'created_at', i.created_at,
        'suspended', exists (select 1 from public.suspended_installations s where s.installation_id = i.installation_id),
        'access', i.access
      )
      order by i.installation_id
    ),
    '[]'::json
  )
  from public.installations i
  where i.user_id = p_user_id
$$;

-- Stores (or replaces) the user's authorization with fresh ciphertexts; clears a revocation.
create function public.store_github_authorization(
  p_user_id uuid,
  p_github_user_id text,
  p_github_login text,
  p_access_token text,
  p_access_expires_at timestamptz,
  p_refresh_token text,
  p_refresh_expires_at timestamptz
) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  insert into public.github_user_authorizations as a
    (user_id, github_user_id, github_login, access_token, access_expires_at, refresh_token, refresh_expires_at, revoked_at)
  values (p_user_id, p_github_user_id, p_github_login, p_access_token, p_access_expires_at, p_refresh_token, p_refresh_expires_at, null)
  on conflict (user_id) do update
    set github_user_id = excluded.github_user_id,
        github_login = excluded.github_login,
        access_token = excluded.access_token,
        access_expires_at = excluded.access_expires_at,
        refresh_token = excluded.refresh_token,
        refresh_expires_at = excluded.refresh_expires_at,
        revoked_at = null,
        updated_at = now()
  returning json_build_object('github_user_id', a.github_user_id, 'github_login', a.github_login)
$$;

-- The user's authorization (ciphertexts included, for the API only), or null.
create function public.github_authorization(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'github_user_id', a.github_user_id,
    'github_login', a.github_login,
    'access_token', a.access_token,
    'access_expires_at', a.access_expires_at,
    'refresh_token', a.refresh_token,
    'refresh_expires_at', a.refresh_expires_at,
    'revoked_at', a.revoked_at
  )
  from public.github_user_authorizations a
  where a.user_id = p_user_id
$$;

-- Ends the user's authorization: the ciphertexts go, `revoked_at` records when, and the installations the
-- user reached only as a member go with the repositories, scans and findings they gave (links the user made
-- through the installation callback stay: they are re-checked on their own terms).
create function public.revoke_github_authorization(p_user_id uuid) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with revoked as (
    update public.github_user_authorizations
    set access_token = null, refresh_token = null, access_expires_at = null, refresh_expires_at = null,
        revoked_at = now(), updated_at = now()
    where user_id = p_user_id
    returning 1
  ),
  gone as (
    delete from public.installations where user_id = p_user_id and access = 'member' returning 1
  )
  select json_build_object('revoked', exists (select 1 from revoked), 'links', (select count(*) from gone))
$$;

-- The `github_app_authorization` webhook (action `revoked`): every user whose authorization acts for that
-- GitHub account, as revoke_github_authorization does for each, and their sign-in sessions end: Supabase's
-- `auth.sessions` rows go (their refresh tokens with them), so the browser is signed out when its access
-- token next needs renewing, and the API refuses sooner (revoked_at, lib/services/user-access.ts). Security
-- definer for auth.sessions only; like every server function, executable by service_role alone.
create function public.github_authorization_revoked(p_github_user_id text) returns json
language plpgsql volatile
security definer
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_users uuid[];
  v_links bigint;
begin
  with revoked as (
    update public.github_user_authorizations
    set access_token = null, refresh_token = null, access_expires_at = null, refresh_expires_at = null,
        revoked_at = now(), updated_at = now()
    where github_user_id = p_github_user_id
    returning user_id
  )
  select coalesce(array_agg(user_id order by user_id), '{}') into v_users from revoked;
  with gone as (
    delete from public.installations where user_id = any (v_users) and access = 'member' returning 1
  )
  select count(*) into v_links from gone;
  if to_regclass('auth.sessions') is not null and cardinality(v_users) > 0 then
    execute 'delete from auth.sessions where user_id = any ($1)' using v_users;
  end if;
  return json_build_object('user_ids', to_json(v_users), 'links', v_links);
end
$$;

-- A member sync: the installations GitHub lists for the user's token become (or stay) `member` links,
-- unless the user already links them through the callback; `member` links GitHub no longer lists go with
-- what they gave. Then the listed installations' repositories are synced as resync_repositories does:
-- exactly GitHub's listing for the user. One transaction.
create function public.sync_member_installations(
  p_user_id uuid,
  p_github_user_id text,
  p_installations jsonb
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
begin
  delete from public.installations i
  where i.user_id = p_user_id
    and i.access = 'member'
    and not exists (
      select 1 from jsonb_array_elements(coalesce(p_installations, '[]'::jsonb)) e
      where (e ->> 'installation_id')::bigint = i.installation_id
    );
  insert into public.installations as i (user_id, installation_id, account_login, account_type, github_user_id, access)
  select p_user_id, x.installation_id, x.account_login, x.account_type, p_github_user_id, 'member'
  from jsonb_to_recordset(coalesce(p_installations, '[]'::jsonb)) as x(installation_id bigint, account_login text, account_type text)
  on conflict (user_id, installation_id) do update
    set account_login = excluded.account_login, account_type = excluded.account_type,
        github_user_id = case when i.access = 'member' then excluded.github_user_id else i.github_user_id end;
  return json_build_object('installations', jsonb_array_length(coalesce(p_installations, '[]'::jsonb)));
end
$$;

-- One repository of the user goes with its scans and findings (a scan found GitHub no longer lets the member
-- access it). Idempotent: `deleted` says whether there was one.
create function public.remove_user_repository(p_user_id uuid, p_repository_id uuid) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (delete from public.repositories where user_id = p_user_id and id = p_repository_id returning 1)
  select json_build_object('deleted', exists (select 1 from gone))
$$;

revoke execute on function
  public.remove_user_repository(uuid, uuid),
  public.list_installations(uuid),
  public.store_github_authorization(uuid, text, text, text, timestamptz, text, timestamptz),
  public.github_authorization(uuid),
  public.revoke_github_authorization(uuid),
  public.github_authorization_revoked(text),
  public.sync_member_installations(uuid, text, jsonb)
from public, anon, authenticated;

grant execute on function
  public.remove_user_repository(uuid, uuid),
  public.list_installations(uuid),
  public.store_github_authorization(uuid, text, text, text, timestamptz, text, timestamptz),
  public.github_authorization(uuid),
  public.revoke_github_authorization(uuid),
  public.github_authorization_revoked(text),
  public.sync_member_installations(uuid, text, jsonb)
to service_role;

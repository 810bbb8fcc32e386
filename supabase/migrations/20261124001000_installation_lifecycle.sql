-- Links follow GitHub (issue 13). A link records which GitHub account made it, so that GitHub's word about
-- that account (it left the organization) can remove exactly its links; an installation GitHub suspended
-- keeps its rows but is refused scans and syncs; each webhook delivery is acted on once; a user can unlink.
--
-- The webhook functions act on every user's rows of an installation: they take no p_user_id, because the
-- caller is GitHub (a verified signature), not a user. Like every server function, only service_role may
-- execute them.

-- The GitHub account (numeric id, as text) whose ownership let the user link the installation; null for
-- links made before this migration (the membership re-check at sync covers them).
alter table public.installations add column github_user_id text null;

-- Installations GitHub suspended (the `installation` webhook, action `suspend`), for every user who linked them.
create table public.suspended_installations (
  installation_id bigint primary key check (installation_id > 0),
  suspended_at timestamptz not null default now()
);
alter table public.suspended_installations enable row level security;
revoke all on table public.suspended_installations from public, anon, authenticated;
grant select, insert, update, delete on table public.suspended_installations to service_role;

-- Webhook deliveries already acted on, by X-GitHub-Delivery; kept a week (GitHub redelivers within days).
create table public.webhook_deliveries (
  delivery_id text primary key check (length(delivery_id) between 1 and 100),
  event text not null,
  received_at timestamptz not null default now()
);
create index webhook_deliveries_received_idx on public.webhook_deliveries (received_at);
alter table public.webhook_deliveries enable row level security;
revoke all on table public.webhook_deliveries from public, anon, authenticated;
grant select, insert, update, delete on table public.webhook_deliveries to service_role;

-- link_installation gains the linking account; dropped and re-created, since a new parameter would otherwise
-- add an overload beside the old function.
drop function public.link_installation(uuid, bigint, text, text);
create function public.link_installation(
  p_user_id uuid,
  p_installation_id bigint,
  p_account_login text,
  p_account_type text,
  p_github_user_id text default null
) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  insert into public.installations as i (user_id, installation_id, account_login, account_type, github_user_id)
  values (p_user_id, p_installation_id, p_account_login, p_account_type, p_github_user_id)
  on conflict (user_id, installation_id) do update
    set account_login = excluded.account_login, account_type = excluded.account_type, github_user_id = excluded.github_user_id
  returning json_build_object(
    'installation_id', i.installation_id,
    'account_login', i.account_login,
    'account_type', i.account_type,
    'created_at', i.created_at
  )
$$;

-- The user's installations gain `suspended` (GitHub suspended the installation).
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
        'suspended', exists (select 1 from public.suspended_installations s where s.installation_id = i.installation_id)
      )
      order by i.installation_id
    ),
    '[]'::json
  )
  from public.installations i
  where i.user_id = p_user_id
$$;

-- Whether GitHub suspended the installation (a scan asks before it fetches anything).
create function public.installation_suspended(p_installation_id bigint) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select to_json(exists (select 1 from public.suspended_installations s where s.installation_id = p_installation_id))
$$;

-- Removes the user's link and, through the foreign keys, the repositories it gave them with their scans,
-- findings and overrides. Idempotent: `deleted` says whether there was a link.
create function public.unlink_installation(p_user_id uuid, p_installation_id bigint) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (
    delete from public.installations where user_id = p_user_id and installation_id = p_installation_id returning 1
  )
  select json_build_object('deleted', exists (select 1 from gone))
$$;

-- A sync that follows GitHub: drops the user's links in `p_dropped_installation_ids` (uninstalled, or the
-- user is no longer entitled), and of the installations in `p_listed_installation_ids` the repositories GitHub
-- no longer lists; then stores the listing exactly as sync_repositories does. One transaction.
create function public.resync_repositories(
  p_user_id uuid,
  p_listed_installation_ids jsonb,
  p_dropped_installation_ids jsonb,
  p_repositories jsonb
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
begin
  delete from public.installations
  where user_id = p_user_id
    and installation_id in (select e::bigint from jsonb_array_elements_text(coalesce(p_dropped_installation_ids, '[]')) e);
  delete from public.repositories r
  where r.user_id = p_user_id
    and r.installation_id in (select e::bigint from jsonb_array_elements_text(coalesce(p_listed_installation_ids, '[]')) e)
    and not exists (
      select 1 from jsonb_array_elements(coalesce(p_repositories, '[]'::jsonb)) e
      where (e ->> 'github_id')::bigint = r.github_id
    );
  return public.sync_repositories(p_user_id, p_repositories);
end
$$;

-- Webhooks -------------------------------------------------------------------------------------------------

-- Claims a delivery: `first` is true exactly once per delivery id. Deliveries older than a week are pruned
-- on the way, so the table stays bounded.
create function public.claim_webhook_delivery(p_delivery_id text, p_event text) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_claimed integer;
begin
  delete from public.webhook_deliveries where received_at < now() - interval '7 days';
  insert into public.webhook_deliveries (delivery_id, event) values (p_delivery_id, p_event)
  on conflict (delivery_id) do nothing;
  get diagnostics v_claimed = row_count;
  return json_build_object('first', v_claimed = 1);
end
$$;

-- Gives a claimed delivery back (its handling failed), so that GitHub's redelivery is acted on.
create function public.release_webhook_delivery(p_delivery_id text) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (delete from public.webhook_deliveries where delivery_id = p_delivery_id returning 1)
  select json_build_object('deleted', exists (select 1 from gone))
$$;

-- `installation` deleted: every user's link to it goes, with the repositories, scans and findings it gave.
create function public.installation_deleted(p_installation_id bigint) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with unsuspended as (delete from public.suspended_installations where installation_id = p_installation_id),
  gone as (delete from public.installations where installation_id = p_installation_id returning 1)
  select json_build_object('links', (select count(*) from gone))
$$;

-- `installation` suspend / unsuspend.
create function public.set_installation_suspended(p_installation_id bigint, p_suspended boolean) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
begin
  if p_suspended then
    insert into public.suspended_installations (installation_id) values (p_installation_id) on conflict do nothing;
  else
    delete from public.suspended_installations where installation_id = p_installation_id;
  end if;
  return json_build_object('suspended', p_suspended);
end
$$;

-- `installation_repositories` removed: those repositories go for every user, with their scans and findings.
create function public.installation_repositories_removed(p_installation_id bigint, p_github_ids jsonb) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (
    delete from public.repositories
    where installation_id = p_installation_id
      and github_id in (select e::bigint from jsonb_array_elements_text(coalesce(p_github_ids, '[]')) e)
    returning 1
  )
  select json_build_object('repositories', (select count(*) from gone))
$$;

-- `organization` member_removed: the links that GitHub account made to the organization's installation go
-- (by installation when the delivery names one, else by the organization's login).
create function public.organization_member_removed(p_installation_id bigint, p_org_login text, p_github_user_id text) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (
    delete from public.installations
    where github_user_id = p_github_user_id
      and account_type = 'Organization'
      and (
        (p_installation_id is not null and installation_id = p_installation_id)
        or (p_installation_id is null and lower(account_login) = lower(p_org_login))
      )
    returning 1
  )
  select json_build_object('links', (select count(*) from gone))
$$;

revoke execute on function
  public.link_installation(uuid, bigint, text, text, text),
  public.list_installations(uuid),
  public.installation_suspended(bigint),
  public.unlink_installation(uuid, bigint),
  public.resync_repositories(uuid, jsonb, jsonb, jsonb),
  public.claim_webhook_delivery(text, text),
  public.release_webhook_delivery(text),
  public.installation_deleted(bigint),
  public.set_installation_suspended(bigint, boolean),
  public.installation_repositories_removed(bigint, jsonb),
  public.organization_member_removed(bigint, text, text)
from public, anon, authenticated;

grant execute on function
  public.link_installation(uuid, bigint, text, text, text),
  public.list_installations(uuid),
  public.installation_suspended(bigint),
  public.unlink_installation(uuid, bigint),
  public.resync_repositories(uuid, jsonb, jsonb, jsonb),
  public.claim_webhook_delivery(text, text),
  public.release_webhook_delivery(text),
  public.installation_deleted(bigint),
  public.set_installation_suspended(bigint, boolean),
  public.installation_repositories_removed(bigint, jsonb),
  public.organization_member_removed(bigint, text, text)
to service_role;

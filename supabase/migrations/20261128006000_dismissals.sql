-- Triage (design.md, Triage): a user's decision that a finding or an attack path of one repository is a false
-- positive, an accepted risk or won't be fixed, keyed by fingerprint (line-independent, as CLI baselines are),
-- so a later scan of the same problem stays dismissed and a new problem does not. One row per decision in
-- force; every dismiss and reopen is also appended to `dismissal_events`, the audit trail (who, when, why).
-- Both tables are readable by their owner under row-level security and written only by the server functions.
-- Bounded: a fingerprint is hexadecimal (an attack path's prefixed `path-`), at most 64 digits, a comment 1,000, a repository 5,000 dismissals; the trail
-- keeps the newest 20 events per fingerprint.

create table public.dismissals (
  user_id uuid not null references auth.users (id) on delete cascade,
  repository_id uuid not null,
  fingerprint text not null check (fingerprint ~ '^(path-)?[0-9a-f]{6,64}$'),
  kind text not null check (kind in ('finding', 'attack_path')),
  reason text not null check (reason in ('false_positive', 'accepted_risk', 'wont_fix')),
  comment text not null default '' check (char_length(comment) <= 1000),
  -- Who dismissed it: the user's id (dismissals are per user; the column keeps the trail explicit).
  dismissed_by uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, repository_id, fingerprint),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);

create table public.dismissal_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  repository_id uuid not null,
  fingerprint text not null,
  action text not null check (action in ('dismiss', 'reopen')),
  kind text not null check (kind in ('finding', 'attack_path')),
  reason text check (reason in ('false_positive', 'accepted_risk', 'wont_fix')),
  comment text not null default '',
  actor uuid not null,
  at timestamptz not null default now(),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);
create index dismissal_events_by_fingerprint on public.dismissal_events (user_id, repository_id, fingerprint, id desc);

alter table public.dismissals enable row level security;
create policy dismissals_select_own on public.dismissals for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.dismissals from public, anon, authenticated;
grant select on table public.dismissals to authenticated;
grant select, insert, update, delete on table public.dismissals to service_role;

alter table public.dismissal_events enable row level security;
create policy dismissal_events_select_own on public.dismissal_events for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.dismissal_events from public, anon, authenticated;
grant select on table public.dismissal_events to authenticated;
grant select, insert, update, delete on table public.dismissal_events to service_role;
revoke all on sequence public.dismissal_events_id_seq from public, anon, authenticated;
grant usage, select on sequence public.dismissal_events_id_seq to service_role;

-- The dismissal as the API shows it.
create function public.dismissal_json(d public.dismissals) returns json
language sql immutable
set search_path = ''
as $$
  select json_build_object(
    'fingerprint', d.fingerprint, 'kind', d.kind, 'reason', d.reason, 'comment', d.comment,
    'dismissed_by', d.dismissed_by, 'created_at', d.created_at, 'updated_at', d.updated_at
  )
$$;

-- Upserts the decision and appends it to the trail. Raises P0002 when the user does not own the repository;
-- returns `{"limit_reached": true}` (storing nothing) when the repository already has 5,000 other dismissals.
create function public.set_dismissal(
  p_user_id uuid,
  p_repository_id uuid,
  p_fingerprint text,
  p_kind text,
  p_reason text,
  p_comment text
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_row public.dismissals;
begin
  perform 1 from public.repositories r where r.id = p_repository_id and r.user_id = p_user_id for update;
  if not found then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;
  if (select count(*) from public.dismissals d where d.user_id = p_user_id and d.repository_id = p_repository_id and d.fingerprint <> p_fingerprint) >= 5000 then
    return json_build_object('limit_reached', true);
  end if;

  insert into public.dismissals as d (user_id, repository_id, fingerprint, kind, reason, comment, dismissed_by)
  values (p_user_id, p_repository_id, p_fingerprint, p_kind, p_reason, coalesce(p_comment, ''), p_user_id)
  on conflict (user_id, repository_id, fingerprint) do update
    set kind = excluded.kind, reason = excluded.reason, comment = excluded.comment, dismissed_by = excluded.dismissed_by, updated_at = now()
  returning d.* into v_row;

  insert into public.dismissal_events (user_id, repository_id, fingerprint, action, kind, reason, comment, actor)
  values (p_user_id, p_repository_id, p_fingerprint, 'dismiss', p_kind, p_reason, coalesce(p_comment, ''), p_user_id);
  delete from public.dismissal_events e
  where e.user_id = p_user_id and e.repository_id = p_repository_id and e.fingerprint = p_fingerprint
    and e.id not in (
      select k.id from public.dismissal_events k
      where k.user_id = p_user_id and k.repository_id = p_repository_id and k.fingerprint = p_fingerprint
      order by k.id desc limit 20
    );

  return public.dismissal_json(v_row);
end
$$;

-- Reopens (idempotent: `deleted` says whether there was a decision); the reopen joins the trail. Raises
-- P0002 when the user does not own the repository.
create function public.clear_dismissal(p_user_id uuid, p_repository_id uuid, p_fingerprint text) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_row public.dismissals;
begin
  perform 1 from public.repositories r where r.id = p_repository_id and r.user_id = p_user_id for update;
  if not found then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;
  delete from public.dismissals d
  where d.user_id = p_user_id and d.repository_id = p_repository_id and d.fingerprint = p_fingerprint
  returning d.* into v_row;
  if v_row.fingerprint is not null then
    insert into public.dismissal_events (user_id, repository_id, fingerprint, action, kind, reason, comment, actor)
    values (p_user_id, p_repository_id, p_fingerprint, 'reopen', v_row.kind, null, '', p_user_id);
  end if;
  return json_build_object('deleted', v_row.fingerprint is not null);
end
$$;

-- The repository's decisions in force (by fingerprint) and its trail (newest first, at most 500 events);
-- null when the user does not own the repository.
create function public.list_dismissals(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'dismissals', coalesce(
      (select json_agg(public.dismissal_json(d) order by d.fingerprint) from public.dismissals d where d.user_id = p_user_id and d.repository_id = r.id),
      '[]'::json
    ),
    'events', coalesce(
      (
        select json_agg(json_build_object(
          'fingerprint', e.fingerprint, 'action', e.action, 'kind', e.kind, 'reason', e.reason, 'comment', e.comment,
          'actor', e.actor, 'at', e.at
        ) order by e.id desc)
        from (
          select * from public.dismissal_events e
          where e.user_id = p_user_id and e.repository_id = r.id
          order by e.id desc limit 500
        ) e
      ),
      '[]'::json
    )
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- As in 20261128000100_finding_facts.sql, plus an element: the repository's decisions in force,
-- `[fingerprint, kind, reason, comment, updated_at]`, which the service applies (a dismissed finding takes no
-- part in a combination; a dismissed combination is listed apart). A repository whose findings are all of
-- no kind still drops out, as before.
create or replace function public.attack_path_inputs(p_user_id uuid, p_rules jsonb, p_kinds jsonb) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
declare
  v_catalog text[] := array(select jsonb_object_keys(p_rules));
  v_on text[] := array(
    select k from unnest(array(select jsonb_object_keys(p_rules))) k
    where not exists (select 1 from public.rule_settings g where g.user_id = p_user_id and g.rule_id = k and not g.enabled)
  );
begin
  return (
    select coalesce(json_agg(json_build_array(r.id, r.full_name, r.html_url, picked.findings, dismissed.rows)), '[]'::json)
    from (
      select r.id, r.full_name, r.html_url
      from public.repositories r
      where r.user_id = p_user_id
      order by r.full_name, r.id
    ) r
    cross join lateral (
      select s.id, s.rule_ids
      from public.scans s
      where s.user_id = p_user_id and s.repository_id = r.id
      order by s.seq desc
      limit 1
    ) latest
    cross join lateral (
      select coalesce(array_agg(o.rule_id) filter (where o.enabled), '{}'::text[]) as turned_on,
             coalesce(array_agg(o.rule_id) filter (where not o.enabled), '{}'::text[]) as turned_off
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = any(v_catalog)
    ) overrides
    cross join lateral (
      select coalesce(array_agg(k), '{}'::text[]) as present
      from unnest(latest.rule_ids) k
      where k = any(overrides.turned_on) or (k = any(v_on) and not k = any(overrides.turned_off))
    ) usable
    cross join lateral (
      select array_agg(distinct rule.id) as rules
      from jsonb_array_elements(p_kinds) kind
      cross join lateral jsonb_array_elements_text(kind -> 'rules') rule(id)
      where not exists (select 1 from jsonb_array_elements(kind -> 'requires') grp where not (grp ?| usable.present))
    ) needed
    cross join lateral (
      select json_agg(
        json_build_array(
          f.file, f.line, f."column", f.severity, f.rule_id, f.description,
          nullif(f.recommendation, p_rules ->> f.rule_id), f.job, f.fingerprint, f.facts
        )
        order by f.ordinal
      ) as findings
      from public.findings f
      where f.user_id = p_user_id and f.scan_id = latest.id and f.rule_id = any(needed.rules)
        and (f.rule_id = any(overrides.turned_on) or (f.rule_id = any(v_on) and not f.rule_id = any(overrides.turned_off)))
    ) picked
    cross join lateral (
      select coalesce(json_agg(json_build_array(d.fingerprint, d.kind, d.reason, d.comment, d.updated_at) order by d.fingerprint), '[]'::json) as rows
      from public.dismissals d
      where d.user_id = p_user_id and d.repository_id = r.id
    ) dismissed
    where picked.findings is not null
  );
end
$$;

-- As in 20261126002000_action_references.sql, plus `dismissed`: the fingerprints of the repository's dismissed
-- findings, which POST /api/scan leaves out of its counts (the stored scan keeps every finding).
create or replace function public.scan_context(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'repository', json_build_object(
      'id', r.id,
      'github_id', r.github_id,
      'installation_id', r.installation_id,
      'full_name', r.full_name,
      'private', r.private,
      'html_url', r.html_url,
      'default_branch', r.default_branch,
      'created_at', r.created_at,
      'updated_at', r.updated_at
    ),
    'disabled_rules', coalesce(
      (
        select json_agg(coalesce(o.rule_id, g.rule_id) order by coalesce(o.rule_id, g.rule_id))
        from (select * from public.rule_settings where user_id = p_user_id) g
        full join (
          select * from public.rule_overrides where user_id = p_user_id and repository_id = r.id
        ) o on o.rule_id = g.rule_id
        where not coalesce(o.enabled, g.enabled)
      ),
      '[]'::json
    ),
    'rule_options', coalesce(
      (
        select json_object_agg(s.rule_id, s.options order by s.rule_id)
        from public.rule_settings s
        where s.user_id = p_user_id and s.options is not null
      ),
      '{}'::json
    ),
    'action_references', coalesce(
      (select a.refs from public.repository_action_references a where a.repository_id = r.id and a.user_id = p_user_id),
      '[]'::jsonb
    ),
    'dismissed', coalesce(
      (select json_agg(d.fingerprint order by d.fingerprint) from public.dismissals d where d.user_id = p_user_id and d.repository_id = r.id and d.kind = 'finding'),
      '[]'::json
    )
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

revoke execute on function public.scan_context(uuid, uuid) from public, anon, authenticated;
grant execute on function public.scan_context(uuid, uuid) to service_role;
revoke execute on function public.dismissal_json(public.dismissals) from public, anon, authenticated;
revoke execute on function public.set_dismissal(uuid, uuid, text, text, text, text) from public, anon, authenticated;
revoke execute on function public.clear_dismissal(uuid, uuid, text) from public, anon, authenticated;
revoke execute on function public.list_dismissals(uuid, uuid) from public, anon, authenticated;
revoke execute on function public.attack_path_inputs(uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.dismissal_json(public.dismissals) to service_role;
grant execute on function public.set_dismissal(uuid, uuid, text, text, text, text) to service_role;
grant execute on function public.clear_dismissal(uuid, uuid, text) to service_role;
grant execute on function public.list_dismissals(uuid, uuid) to service_role;
grant execute on function public.attack_path_inputs(uuid, jsonb, jsonb) to service_role;

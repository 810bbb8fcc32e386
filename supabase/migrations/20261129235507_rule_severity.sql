-- A rule's severity in the user's rule settings (issue 27, item 5): `PUT /api/rule-settings/{rule_id}` and
-- `PUT /api/repositories/{repo_id}/rule-overrides/{rule_id}` take an optional `severity` (HIGH, MEDIUM, LOW,
-- INFO; null clears it), the service's `rules.<id>.severity` of the CLI's `.chainbreaker.yml`: every finding
-- of the rule is reported, counted and gated at that severity, and the attack paths read it. Precedence as
-- for `enabled`: the repository's override, else the global preference, else the rule's own severity.
--
-- Row-level security is unchanged: the tables' policies (the owner reads their rows, no browser role writes)
-- cover the new columns, and only service_role executes the functions.

alter table public.rule_settings
  add column severity text null constraint rule_settings_severity check (severity in ('HIGH', 'MEDIUM', 'LOW', 'INFO'));
alter table public.rule_overrides
  add column severity text null constraint rule_overrides_severity check (severity in ('HIGH', 'MEDIUM', 'LOW', 'INFO'));

-- A row as the API shows it: `options` and `severity` only when set.
create or replace function public.rule_setting_json(p_row public.rule_settings) returns json
language sql immutable
set search_path = '' set timezone = 'UTC'
as $$
  select (
    jsonb_build_object('rule_id', p_row.rule_id, 'enabled', p_row.enabled, 'updated_at', p_row.updated_at)
    || case when p_row.options is null then '{}'::jsonb else jsonb_build_object('options', p_row.options) end
    || case when p_row.severity is null then '{}'::jsonb else jsonb_build_object('severity', p_row.severity) end
  )::json
$$;

create function public.rule_override_json(p_row public.rule_overrides) returns json
language sql immutable
set search_path = '' set timezone = 'UTC'
as $$
  select (
    jsonb_build_object('rule_id', p_row.rule_id, 'enabled', p_row.enabled, 'updated_at', p_row.updated_at)
    || case when p_row.severity is null then '{}'::jsonb else jsonb_build_object('severity', p_row.severity) end
  )::json
$$;

-- `p_severity`: null keeps the stored severity (a client that only turns the rule on or off does not erase
-- it), 'DEFAULT' clears it (the rule's own severity), a severity replaces it.
drop function public.set_rule_setting(uuid, text, boolean, jsonb);
create function public.set_rule_setting(
  p_user_id uuid,
  p_rule_id text,
  p_enabled boolean,
  p_options jsonb default null,
  p_severity text default null
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_row public.rule_settings;
  v_options constant jsonb := case when p_options = '{}'::jsonb then null else p_options end;
  v_severity constant text := case when p_severity = 'DEFAULT' then null else p_severity end;
begin
  insert into public.rule_settings as s (user_id, rule_id, enabled, options, severity)
  values (p_user_id, p_rule_id, p_enabled, v_options, v_severity)
  on conflict (user_id, rule_id) do update
    set enabled = excluded.enabled,
        options = case when p_options is null then s.options else v_options end,
        severity = case when p_severity is null then s.severity else v_severity end,
        updated_at = now()
  returning s.* into v_row;
  return public.rule_setting_json(v_row);
exception when foreign_key_violation then
  raise exception using errcode = '28000', message = 'the user does not exist';
end
$$;

create or replace function public.list_rule_overrides(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(public.rule_override_json(o) order by o.rule_id)
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- As in 20261122000200_server_functions.sql, plus `p_severity` (as in set_rule_setting). Raises P0002 when
-- the user does not own the repository.
drop function public.set_rule_override(uuid, uuid, text, boolean);
create function public.set_rule_override(
  p_user_id uuid,
  p_repository_id uuid,
  p_rule_id text,
  p_enabled boolean,
  p_severity text default null
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_row public.rule_overrides;
  v_severity constant text := case when p_severity = 'DEFAULT' then null else p_severity end;
begin
  insert into public.rule_overrides as o (user_id, repository_id, rule_id, enabled, severity)
  select p_user_id, r.id, p_rule_id, p_enabled, v_severity
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
  on conflict (user_id, repository_id, rule_id) do update
    set enabled = excluded.enabled,
        severity = case when p_severity is null then o.severity else v_severity end,
        updated_at = now()
  returning o.* into v_row;

  if v_row.rule_id is null then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;
  return public.rule_override_json(v_row);
end
$$;

-- As in 20261128006000_dismissals.sql, plus `rule_severities`: `{rule_id: severity}` for the rules whose
-- effective severity is set (the repository's override, else the global preference), for the engine's
-- severity overrides (lib/engine/report.ts `applySeverities`).
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
    'rule_severities', coalesce(
      (
        select json_object_agg(coalesce(o.rule_id, g.rule_id), coalesce(o.severity, g.severity) order by coalesce(o.rule_id, g.rule_id))
        from (select * from public.rule_settings where user_id = p_user_id) g
        full join (
          select * from public.rule_overrides where user_id = p_user_id and repository_id = r.id
        ) o on o.rule_id = g.rule_id
        where coalesce(o.severity, g.severity) is not null
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

revoke execute on function
  public.rule_setting_json(public.rule_settings),
  public.rule_override_json(public.rule_overrides),
  public.set_rule_setting(uuid, text, boolean, jsonb, text),
  public.list_rule_overrides(uuid, uuid),
  public.set_rule_override(uuid, uuid, text, boolean, text),
  public.scan_context(uuid, uuid)
from public, anon, authenticated;
grant execute on function
  public.rule_setting_json(public.rule_settings),
  public.rule_override_json(public.rule_overrides),
  public.set_rule_setting(uuid, text, boolean, jsonb, text),
  public.list_rule_overrides(uuid, uuid),
  public.set_rule_override(uuid, uuid, text, boolean, text),
  public.scan_context(uuid, uuid)
to service_role;

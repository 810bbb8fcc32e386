-- Per-rule options in the user's global rule settings (issues 15 and 17): `PUT /api/rule-settings/{rule_id}`
-- takes an optional `options` object (for instance forbidden-uses' `{"deny": ["docker://*"]}`), validated by
-- the API against the rule's own schema (lib/engine/rule-options.ts) and applied to every scan of the user's
-- repositories. Null means the rule's defaults. The service bounds options far below the check (at most 100
-- entries of 200 characters per list); the check is the backstop, like findings.fix.
--
-- Row-level security is unchanged: the table's policy (the owner reads their rows, no browser role writes)
-- covers the new column, and only service_role executes the functions.

alter table public.rule_settings
  add column options jsonb null
  constraint rule_settings_options_shape check (
    options is null or (jsonb_typeof(options) = 'object' and octet_length(options::text) <= 65536)
  );

-- A row as the API shows it: `options` only when the rule has some.
create function public.rule_setting_json(p_row public.rule_settings) returns json
language sql immutable
set search_path = '' set timezone = 'UTC'
as $$
  select (
    jsonb_build_object('rule_id', p_row.rule_id, 'enabled', p_row.enabled, 'updated_at', p_row.updated_at)
    || case when p_row.options is null then '{}'::jsonb else jsonb_build_object('options', p_row.options) end
  )::json
$$;

create or replace function public.list_rule_settings(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(json_agg(public.rule_setting_json(s) order by s.rule_id), '[]'::json)
  from public.rule_settings s
  where s.user_id = p_user_id
$$;

-- As in 20261122000600_unknown_user.sql, plus `p_options`: null keeps the stored options (a client that only
-- turns the rule on or off does not erase a policy), `{}` clears them (the rule's defaults), any other
-- object replaces them.
drop function public.set_rule_setting(uuid, text, boolean);
create function public.set_rule_setting(p_user_id uuid, p_rule_id text, p_enabled boolean, p_options jsonb default null) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_row public.rule_settings;
  v_options constant jsonb := case when p_options = '{}'::jsonb then null else p_options end;
begin
  insert into public.rule_settings as s (user_id, rule_id, enabled, options)
  values (p_user_id, p_rule_id, p_enabled, v_options)
  on conflict (user_id, rule_id) do update
    set enabled = excluded.enabled,
        options = case when p_options is null then s.options else v_options end,
        updated_at = now()
  returning s.* into v_row;
  return public.rule_setting_json(v_row);
exception when foreign_key_violation then
  raise exception using errcode = '28000', message = 'the user does not exist';
end
$$;

-- As in 20261122000200_server_functions.sql, plus `rule_options`: `{rule_id: options}` of the user's global
-- settings that have options, for the engine (`ScanOptions.ruleOptions`).
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
    )
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

revoke execute on function
  public.rule_setting_json(public.rule_settings),
  public.list_rule_settings(uuid),
  public.set_rule_setting(uuid, text, boolean, jsonb),
  public.scan_context(uuid, uuid)
from public, anon, authenticated;
grant execute on function
  public.rule_setting_json(public.rule_settings),
  public.list_rule_settings(uuid),
  public.set_rule_setting(uuid, text, boolean, jsonb),
  public.scan_context(uuid, uuid)
to service_role;

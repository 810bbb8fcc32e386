-- Server operations, one SQL function each, called by the API through `Database.call` (lib/db): supabase-js
-- `.rpc()` as service_role in production, a direct `select public.<fn>(p_… => …)` elsewhere.
--
-- Conventions (documented for callers in lib/db/README.md):
-- * Every function takes the acting user as `p_user_id` and scopes every statement by it.
-- * Every function returns json (keys in the order built, and cheaper to produce than jsonb), so all three
--   adapters hand back the same JSON. Timestamps are ISO 8601 strings in UTC (`set timezone`); a missing or
--   unowned row reads as SQL null.
-- * A write that names a repository the user does not own raises SQLSTATE P0002 (no_data_found), which the
--   adapters turn into DatabaseError kind 'not_found'.
-- * Security invoker, except github_identity, which reads auth.identities. EXECUTE is revoked from the
--   browser roles (Supabase grants it to them by default) and granted to service_role only.
-- * "Effective" rule state, wherever it appears: the repository's override if there is one, else the
--   global preference, else enabled -- `coalesce(o.enabled, g.enabled, true)`.

-- Installations --------------------------------------------------------------------------------------------

create function public.link_installation(
  p_user_id uuid,
  p_installation_id bigint,
  p_account_login text,
  p_account_type text
) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  insert into public.installations as i (user_id, installation_id, account_login, account_type)
  values (p_user_id, p_installation_id, p_account_login, p_account_type)
  on conflict (user_id, installation_id) do update
    set account_login = excluded.account_login, account_type = excluded.account_type
  returning json_build_object(
    'installation_id', i.installation_id,
    'account_login', i.account_login,
    'account_type', i.account_type,
    'created_at', i.created_at
  )
$$;

create function public.list_installations(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    json_agg(
      json_build_object(
        'installation_id', i.installation_id,
        'account_login', i.account_login,
        'account_type', i.account_type,
        'created_at', i.created_at
      )
      order by i.installation_id
    ),
    '[]'::json
  )
  from public.installations i
  where i.user_id = p_user_id
$$;

-- Repositories ---------------------------------------------------------------------------------------------

-- Upserts what the code host listed now and returns exactly those rows, by full_name. Rows are inserted in
-- github_id order so that concurrent syncs of one user lock them in the same order (no deadlock); the unique
-- key (user_id, github_id) makes the loser of a race update the winner's row instead of adding a second.
-- A github_id listed twice (pagination can shift) is stored once, from its last occurrence.
create function public.sync_repositories(p_user_id uuid, p_repositories jsonb) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with listed as (
    select distinct on (x.github_id) x.*
    from jsonb_array_elements(coalesce(p_repositories, '[]'::jsonb)) with ordinality as e(item, position)
    cross join lateral jsonb_to_record(e.item) as x(
      github_id bigint,
      installation_id bigint,
      full_name text,
      private boolean,
      html_url text,
      default_branch text
    )
    order by x.github_id, e.position desc
  ),
  stored as (
    insert into public.repositories as r
      (user_id, github_id, installation_id, full_name, private, html_url, default_branch)
    select p_user_id, l.github_id, l.installation_id, l.full_name, l.private, l.html_url, l.default_branch
    from listed l
    order by l.github_id
    on conflict (user_id, github_id) do update
      set installation_id = excluded.installation_id,
          full_name = excluded.full_name,
          private = excluded.private,
          html_url = excluded.html_url,
          default_branch = excluded.default_branch,
          updated_at = now()
    returning r.*
  )
  select coalesce(
    json_agg(
      json_build_object(
        'id', s.id,
        'github_id', s.github_id,
        'installation_id', s.installation_id,
        'full_name', s.full_name,
        'private', s.private,
        'html_url', s.html_url,
        'default_branch', s.default_branch,
        'created_at', s.created_at,
        'updated_at', s.updated_at
      )
      order by s.full_name, s.github_id
    ),
    '[]'::json
  )
  from stored s
$$;

create function public.get_repository(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'id', r.id,
    'github_id', r.github_id,
    'installation_id', r.installation_id,
    'full_name', r.full_name,
    'private', r.private,
    'html_url', r.html_url,
    'default_branch', r.default_branch,
    'created_at', r.created_at,
    'updated_at', r.updated_at
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- Everything the scan endpoint reads from the database, in one round trip: the repository and the rules
-- whose effective state is disabled. Null when the user does not own the repository.
create function public.scan_context(p_user_id uuid, p_repository_id uuid) returns json
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
    )
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- Rule settings --------------------------------------------------------------------------------------------

-- The rules with an explicit entry for this repository (a global preference, an override, or both), with
-- their effective state and where it comes from. Null when the user does not own the repository.
create function public.effective_rule_states(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(
        json_build_object(
          'rule_id', coalesce(o.rule_id, g.rule_id),
          'enabled', coalesce(o.enabled, g.enabled),
          'source', case when o.rule_id is not null then 'override' else 'global' end
        )
        order by coalesce(o.rule_id, g.rule_id)
      )
      from (select * from public.rule_settings where user_id = p_user_id) g
      full join (
        select * from public.rule_overrides where user_id = p_user_id and repository_id = r.id
      ) o on o.rule_id = g.rule_id
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

create function public.list_rule_settings(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    json_agg(
      json_build_object('rule_id', s.rule_id, 'enabled', s.enabled, 'updated_at', s.updated_at)
      order by s.rule_id
    ),
    '[]'::json
  )
  from public.rule_settings s
  where s.user_id = p_user_id
$$;

create function public.set_rule_setting(p_user_id uuid, p_rule_id text, p_enabled boolean) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  insert into public.rule_settings as s (user_id, rule_id, enabled)
  values (p_user_id, p_rule_id, p_enabled)
  on conflict (user_id, rule_id) do update
    set enabled = excluded.enabled, updated_at = now()
  returning json_build_object('rule_id', s.rule_id, 'enabled', s.enabled, 'updated_at', s.updated_at)
$$;

-- Idempotent: `deleted` tells whether there was a row to remove.
create function public.clear_rule_setting(p_user_id uuid, p_rule_id text) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with removed as (
    delete from public.rule_settings
    where user_id = p_user_id and rule_id = p_rule_id
    returning 1
  )
  select json_build_object('deleted', exists (select 1 from removed))
$$;

-- Null when the user does not own the repository.
create function public.list_rule_overrides(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(
        json_build_object('rule_id', o.rule_id, 'enabled', o.enabled, 'updated_at', o.updated_at)
        order by o.rule_id
      )
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- Raises P0002 when the user does not own the repository.
create function public.set_rule_override(
  p_user_id uuid,
  p_repository_id uuid,
  p_rule_id text,
  p_enabled boolean
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_override json;
begin
  insert into public.rule_overrides as o (user_id, repository_id, rule_id, enabled)
  select p_user_id, r.id, p_rule_id, p_enabled
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
  on conflict (user_id, repository_id, rule_id) do update
    set enabled = excluded.enabled, updated_at = now()
  returning json_build_object('rule_id', o.rule_id, 'enabled', o.enabled, 'updated_at', o.updated_at)
  into v_override;

  if v_override is null then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;
  return v_override;
end
$$;

-- Idempotent for a missing override; raises P0002 when the user does not own the repository.
create function public.clear_rule_override(p_user_id uuid, p_repository_id uuid, p_rule_id text) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_deleted integer;
begin
  perform 1 from public.repositories r where r.id = p_repository_id and r.user_id = p_user_id;
  if not found then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;

  delete from public.rule_overrides o
  where o.user_id = p_user_id and o.repository_id = p_repository_id and o.rule_id = p_rule_id;
  get diagnostics v_deleted = row_count;
  return json_build_object('deleted', v_deleted > 0);
end
$$;

-- Scans ----------------------------------------------------------------------------------------------------

-- Records a scan and its findings in one statement, hence one transaction: on any error (an unowned
-- repository, a finding that violates a constraint, counts that disagree with the findings) nothing is
-- stored. `p_counts` is {"HIGH": n, "MEDIUM": n, "LOW": n, "INFO": n} and must match `p_findings`, an array
-- of stored findings (the 9 public fields plus `job` and `fingerprint`), kept in the given order.
create function public.record_scan(
  p_user_id uuid,
  p_repository_id uuid,
  p_ruleset text,
  p_counts jsonb,
  p_findings jsonb
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_findings constant jsonb := coalesce(p_findings, '[]'::jsonb);
  v_counted jsonb;
  v_scan public.scans;
begin
  perform 1 from public.repositories r where r.id = p_repository_id and r.user_id = p_user_id;
  if not found then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;

  select jsonb_build_object(
    'HIGH', count(*) filter (where e.item ->> 'severity' = 'HIGH'),
    'MEDIUM', count(*) filter (where e.item ->> 'severity' = 'MEDIUM'),
    'LOW', count(*) filter (where e.item ->> 'severity' = 'LOW'),
    'INFO', count(*) filter (where e.item ->> 'severity' = 'INFO')
  )
  into v_counted
  from jsonb_array_elements(v_findings) as e(item);
  if p_counts is distinct from v_counted then
    raise exception using errcode = '22023', message = 'counts do not match findings';
  end if;

  insert into public.scans as s
    (user_id, repository_id, ruleset, high_count, medium_count, low_count, info_count)
  values (
    p_user_id,
    p_repository_id,
    p_ruleset,
    (v_counted ->> 'HIGH')::integer,
    (v_counted ->> 'MEDIUM')::integer,
    (v_counted ->> 'LOW')::integer,
    (v_counted ->> 'INFO')::integer
  )
  returning s.* into v_scan;

  insert into public.findings (
    scan_id, ordinal, user_id, file, line, "column", severity, category, rule_id, title, description,
    recommendation, job, fingerprint
  )
  select
    v_scan.id, (e.position - 1)::integer, p_user_id, f.file, f.line, f."column", f.severity, f.category,
    f.rule_id, f.title, f.description, f.recommendation, f.job, f.fingerprint
  from jsonb_array_elements(v_findings) with ordinality as e(item, position)
  cross join lateral jsonb_to_record(e.item) as f(
    file text,
    line integer,
    "column" integer,
    severity text,
    category text,
    rule_id text,
    title text,
    description text,
    recommendation text,
    job text,
    fingerprint text
  );

  return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at);
end
$$;

-- Latest-scan findings of one repository whose rule is enabled *now* (a rule turned off after the scan
-- drops out without a re-scan), in recorded order. [] when never scanned; null when not owned.
create function public.repository_combo_inputs(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(
        json_build_object(
          'file', f.file,
          'line', f.line,
          'column', f."column",
          'severity', f.severity,
          'category', f.category,
          'rule_id', f.rule_id,
          'title', f.title,
          'description', f.description,
          'recommendation', f.recommendation,
          'job', f.job,
          'fingerprint', f.fingerprint
        )
        order by f.ordinal
      )
      from (
        select s.id
        from public.scans s
        where s.user_id = p_user_id and s.repository_id = r.id
        order by s.created_at desc, s.id desc
        limit 1
      ) latest
      join public.findings f on f.user_id = p_user_id and f.scan_id = latest.id
      left join public.rule_overrides o
        on o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = f.rule_id
      left join public.rule_settings g on g.user_id = p_user_id and g.rule_id = f.rule_id
      where coalesce(o.enabled, g.enabled, true)
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- The same for every repository of the user that has a scan, in one statement, by full_name:
-- [{repo_id, full_name, html_url, findings}]. Sized for 1,000 repositories x 50 findings (tens of MB of
-- JSON): one index descent per repository for its latest scan, its findings read in recorded order from the
-- primary key, json (text) rather than jsonb aggregation, and no JIT, whose compile time would exceed the
-- query's own.
create function public.attack_path_inputs(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
  select coalesce(
    json_agg(
      json_build_object(
        'repo_id', r.id,
        'full_name', r.full_name,
        'html_url', r.html_url,
        'findings', enabled.findings
      )
      order by r.full_name, r.id
    ),
    '[]'::json
  )
  from public.repositories r
  cross join lateral (
    select s.id
    from public.scans s
    where s.user_id = p_user_id and s.repository_id = r.id
    order by s.created_at desc, s.id desc
    limit 1
  ) latest
  cross join lateral (
    select coalesce(
      json_agg(
        json_build_object(
          'file', f.file,
          'line', f.line,
          'column', f."column",
          'severity', f.severity,
          'category', f.category,
          'rule_id', f.rule_id,
          'title', f.title,
          'description', f.description,
          'recommendation', f.recommendation,
          'job', f.job,
          'fingerprint', f.fingerprint
        )
        order by f.ordinal
      ),
      '[]'::json
    ) as findings
    from public.findings f
    left join public.rule_overrides o
      on o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = f.rule_id
    left join public.rule_settings g on g.user_id = p_user_id and g.rule_id = f.rule_id
    where f.user_id = p_user_id and f.scan_id = latest.id and coalesce(o.enabled, g.enabled, true)
  ) enabled
  where r.user_id = p_user_id
$$;

-- Identity -------------------------------------------------------------------------------------------------

-- The user's GitHub account as the auth server recorded it at sign-in: `provider_id` is GitHub's numeric
-- user id (as text), `login` the user name. Read from auth.identities, never from user_metadata, which the
-- user can edit. Security definer: the API's role (service_role) is not granted the auth tables, the
-- function's owner (the migrating role) is.
create function public.github_identity(p_user_id uuid) returns json
language sql stable
security definer
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'provider_id', i.provider_id,
    'login', coalesce(i.identity_data ->> 'user_name', i.identity_data ->> 'preferred_username')
  )
  from auth.identities i
  where i.user_id = p_user_id and i.provider = 'github'
  order by i.last_sign_in_at desc nulls last, i.created_at desc nulls last
  limit 1
$$;

-- Only the API (service_role) may call these; Supabase grants EXECUTE on new functions to the browser roles.
revoke execute on function
  public.link_installation(uuid, bigint, text, text),
  public.list_installations(uuid),
  public.sync_repositories(uuid, jsonb),
  public.get_repository(uuid, uuid),
  public.scan_context(uuid, uuid),
  public.effective_rule_states(uuid, uuid),
  public.list_rule_settings(uuid),
  public.set_rule_setting(uuid, text, boolean),
  public.clear_rule_setting(uuid, text),
  public.list_rule_overrides(uuid, uuid),
  public.set_rule_override(uuid, uuid, text, boolean),
  public.clear_rule_override(uuid, uuid, text),
  public.record_scan(uuid, uuid, text, jsonb, jsonb),
  public.repository_combo_inputs(uuid, uuid),
  public.attack_path_inputs(uuid),
  public.github_identity(uuid)
from public, anon, authenticated;

grant execute on function
  public.link_installation(uuid, bigint, text, text),
  public.list_installations(uuid),
  public.sync_repositories(uuid, jsonb),
  public.get_repository(uuid, uuid),
  public.scan_context(uuid, uuid),
  public.effective_rule_states(uuid, uuid),
  public.list_rule_settings(uuid),
  public.set_rule_setting(uuid, text, boolean),
  public.clear_rule_setting(uuid, text),
  public.list_rule_overrides(uuid, uuid),
  public.set_rule_override(uuid, uuid, text, boolean),
  public.clear_rule_override(uuid, uuid, text),
  public.record_scan(uuid, uuid, text, jsonb, jsonb),
  public.repository_combo_inputs(uuid, uuid),
  public.attack_path_inputs(uuid),
  public.github_identity(uuid)
to service_role;

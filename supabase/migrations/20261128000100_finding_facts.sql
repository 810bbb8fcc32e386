-- What the run model established about a finding (FindingRecord.facts: `reach:anyone`, `exec`, `holds:secrets`,
-- `run:<occasions>` ...), stored with it so that attack paths computed from stored findings check the same facts
-- as a fresh scan. record_scan stores it; repository_combo_inputs and attack_path_inputs return it (the compact
-- form gains a tenth element). Null for findings that state no such facts, and for rows stored before.

alter table public.findings add column facts text[];

create or replace function public.record_scan(
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
    recommendation, job, fingerprint, fix, facts
  )
  select
    v_scan.id, (e.position - 1)::integer, p_user_id, f.file, f.line, f."column", f.severity, f.category,
    f.rule_id, f.title, f.description, f.recommendation, f.job, f.fingerprint, nullif(f.fix, 'null'::jsonb), f.facts
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
    fingerprint text,
    fix jsonb,
    facts text[]
  );

  return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at);
end
$$;

create or replace function public.repository_combo_inputs(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(
        jsonb_build_object(
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
        ) || case when f.facts is null then '{}'::jsonb else jsonb_build_object('facts', f.facts) end
        order by f.ordinal
      )
      from (
        select s.id
        from public.scans s
        where s.user_id = p_user_id and s.repository_id = r.id
        order by s.seq desc
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

create or replace function public.attack_path_inputs(p_user_id uuid, p_rules jsonb, p_kinds jsonb) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
declare
  -- The combination rules, and those of them the user has not turned off globally.
  v_catalog text[] := array(select jsonb_object_keys(p_rules));
  v_on text[] := array(
    select k from unnest(array(select jsonb_object_keys(p_rules))) k
    where not exists (select 1 from public.rule_settings g where g.user_id = p_user_id and g.rule_id = k and not g.enabled)
  );
begin
  return (
    select coalesce(json_agg(json_build_array(r.id, r.full_name, r.html_url, picked.findings)), '[]'::json)
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
    -- The repository's overrides of combination rules, turned on and turned off.
    cross join lateral (
      select coalesce(array_agg(o.rule_id) filter (where o.enabled), '{}'::text[]) as turned_on,
             coalesce(array_agg(o.rule_id) filter (where not o.enabled), '{}'::text[]) as turned_off
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = any(v_catalog)
    ) overrides
    -- The combination rules enabled here that the latest scan has findings of.
    cross join lateral (
      select coalesce(array_agg(k), '{}'::text[]) as present
      from unnest(latest.rule_ids) k
      where k = any(overrides.turned_on) or (k = any(v_on) and not k = any(overrides.turned_off))
    ) usable
    -- Rules of the kinds whose every group has a usable finding here.
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
    where picked.findings is not null
  );
end
$$;

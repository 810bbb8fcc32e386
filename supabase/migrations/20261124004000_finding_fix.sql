-- Each finding's fix, stored with its scan, so the stored reads (GET /api/scans/{scan_id}, and browsers reading
-- the findings table under row-level security) show what POST /api/scan returned: `{safe, diff}` for a
-- workflow finding, `{safe: false, api: {method, path, body}}` for a settings finding, null when it has none.
-- The service drops a fix over 64 KiB before recording (lib/services/scan.ts); the check is the backstop
-- (jsonb's text has spaces JSON.stringify leaves out, hence twice the service's bound).

alter table public.findings
  add column fix jsonb null
  constraint findings_fix_shape check (
    fix is null or (jsonb_typeof(fix) = 'object' and jsonb_typeof(fix -> 'safe') is not distinct from 'boolean' and octet_length(fix::text) <= 131072)
  );

-- As before (20261122000200_server_functions.sql), plus `fix`: an absent or null `fix` stores null.
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
    recommendation, job, fingerprint, fix
  )
  select
    v_scan.id, (e.position - 1)::integer, p_user_id, f.file, f.line, f."column", f.severity, f.category,
    f.rule_id, f.title, f.description, f.recommendation, f.job, f.fingerprint, nullif(f.fix, 'null'::jsonb)
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
    fix jsonb
  );

  return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at);
end
$$;

-- As before (20261124003000_scan_reads.sql); a finding with a fix carries it, one without has no `fix` key.
create or replace function public.get_scan(p_user_id uuid, p_scan_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'scan_id', s.id,
    'repo_id', s.repository_id,
    'ruleset', s.ruleset,
    'counts', json_build_object('HIGH', s.high_count, 'MEDIUM', s.medium_count, 'LOW', s.low_count, 'INFO', s.info_count),
    'created_at', s.created_at,
    'findings', coalesce(
      (
        select json_agg(
          case when f.fix is null then
            json_build_object(
              'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation
            )
          else
            json_build_object(
              'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation,
              'fix', f.fix
            )
          end
          order by f.ordinal
        )
        from public.findings f
        where f.scan_id = s.id and f.user_id = p_user_id
      ),
      '[]'::json
    )
  )
  from public.scans s
  where s.id = p_scan_id and s.user_id = p_user_id
$$;

-- `create or replace` keeps the privileges of the earlier files; restated so this file reads on its own.
revoke execute on function
  public.record_scan(uuid, uuid, text, jsonb, jsonb),
  public.get_scan(uuid, uuid)
from public, anon, authenticated;

grant execute on function
  public.record_scan(uuid, uuid, text, jsonb, jsonb),
  public.get_scan(uuid, uuid)
to service_role;

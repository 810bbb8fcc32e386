-- Each stored finding's fingerprint (its line-independent identity, what CLI baselines record) in the stored
-- read, so GET /api/scans/{scan_id} shows what POST /api/scan returned. The column exists since the findings
-- table was created; browsers already read it under row-level security.

-- As before (20261124004000_finding_fix.sql), plus `fingerprint`.
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
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation,
              'fingerprint', f.fingerprint
            )
          else
            json_build_object(
              'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation,
              'fingerprint', f.fingerprint, 'fix', f.fix
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
revoke execute on function public.get_scan(uuid, uuid) from public, anon, authenticated;
grant execute on function public.get_scan(uuid, uuid) to service_role;

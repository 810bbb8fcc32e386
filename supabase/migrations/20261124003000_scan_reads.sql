-- Read functions for the API's read endpoints (`GET /api/installations` uses list_installations): a
-- repository's scans, newest first and paginated by `seq`, and one scan with its findings. Browsers with a
-- Supabase project read the same rows straight from the tables under row-level security; these serve the
-- embedded mode, scripts and CI through the API.

-- Null when the user does not own the repository. At most p_limit rows (clamped to 1..100) with seq below
-- p_before_seq (null: from the newest), newest first; each row carries `seq`, the cursor of the next page.
create function public.list_repository_scans(p_user_id uuid, p_repository_id uuid, p_limit integer, p_before_seq bigint)
returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(page.row order by page.seq desc)
      from (
        select s.seq,
          json_build_object(
            'scan_id', s.id,
            'repo_id', s.repository_id,
            'ruleset', s.ruleset,
            'counts', json_build_object('HIGH', s.high_count, 'MEDIUM', s.medium_count, 'LOW', s.low_count, 'INFO', s.info_count),
            'created_at', s.created_at,
            'seq', s.seq
          ) as row
        from public.scans s
        where s.user_id = p_user_id and s.repository_id = r.id and (p_before_seq is null or s.seq < p_before_seq)
        order by s.seq desc
        limit greatest(1, least(coalesce(p_limit, 20), 100))
      ) page
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- The scan with its findings in recorded order; null when it is not the user's (or does not exist).
create function public.get_scan(p_user_id uuid, p_scan_id uuid) returns json
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
          json_build_object(
            'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
            'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation
          )
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

revoke execute on function
  public.list_repository_scans(uuid, uuid, integer, bigint),
  public.get_scan(uuid, uuid)
from public, anon, authenticated;

grant execute on function
  public.list_repository_scans(uuid, uuid, integer, bigint),
  public.get_scan(uuid, uuid)
to service_role;

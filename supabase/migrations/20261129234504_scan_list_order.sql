-- The scan list of 20261128224504_monitoring.sql built each row as jsonb, which orders keys by length: the
-- `counts` came out LOW, HIGH, INFO, MEDIUM instead of by severity, unlike every other read of counts. The rows
-- are plain json again (keys in the order written); `commit_sha` is always there, null without a commit, and
-- the API leaves a null out (lib/services/scans.ts), as browsers' reads do.
create or replace function public.list_repository_scans(p_user_id uuid, p_repository_id uuid, p_limit integer, p_before_seq bigint)
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
            'trigger', s.trigger,
            'counts', json_build_object('HIGH', s.high_count, 'MEDIUM', s.medium_count, 'LOW', s.low_count, 'INFO', s.info_count),
            'created_at', s.created_at,
            'commit_sha', s.commit_sha,
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

revoke execute on function public.list_repository_scans(uuid, uuid, integer, bigint) from public, anon, authenticated;
grant execute on function public.list_repository_scans(uuid, uuid, integer, bigint) to service_role;

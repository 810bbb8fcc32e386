-- The Repositories view at scale (issue 27, items 6 and 7): every repository of the user with its latest
-- scan and that scan's *open* counts (the dismissed findings subtracted, as the Findings view counts them),
-- in one round trip, so a client lists a thousand repositories with one request instead of one per
-- repository. `GET /api/repositories` returns it. Bounded by the user's repositories (the sync's), each
-- read through the latest-scan index and the dismissals' primary key.
--
-- Only service_role executes it; browsers that read under row-level security use the API for this one.

create function public.repository_overview(p_user_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    json_agg(
      json_build_object(
        'repo_id', r.id,
        'full_name', r.full_name,
        'private', r.private,
        'html_url', r.html_url,
        'latest_scan', case when l.id is null then null else json_build_object(
          'scan_id', l.id,
          'ruleset', l.ruleset,
          'created_at', l.created_at,
          'counts', json_build_object(
            'HIGH', l.high_count - coalesce(d.high, 0),
            'MEDIUM', l.medium_count - coalesce(d.medium, 0),
            'LOW', l.low_count - coalesce(d.low, 0),
            'INFO', l.info_count - coalesce(d.info, 0)
          ),
          'dismissed', coalesce(d.total, 0)
        ) end
      )
      order by r.full_name
    ),
    '[]'::json
  )
  from public.repositories r
  left join lateral (
    select s.id, s.ruleset, s.created_at, s.high_count, s.medium_count, s.low_count, s.info_count
    from public.scans s
    where s.user_id = p_user_id and s.repository_id = r.id
    order by s.seq desc
    limit 1
  ) l on true
  left join lateral (
    select
      count(*) filter (where f.severity = 'HIGH') as high,
      count(*) filter (where f.severity = 'MEDIUM') as medium,
      count(*) filter (where f.severity = 'LOW') as low,
      count(*) filter (where f.severity = 'INFO') as info,
      count(*) as total
    from public.findings f
    join public.dismissals x
      on x.user_id = p_user_id and x.repository_id = r.id and x.fingerprint = f.fingerprint and x.kind = 'finding'
    where f.scan_id = l.id
  ) d on l.id is not null
  where r.user_id = p_user_id
$$;

revoke execute on function public.repository_overview(uuid) from public, anon, authenticated;
grant execute on function public.repository_overview(uuid) to service_role;

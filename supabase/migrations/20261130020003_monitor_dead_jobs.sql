-- The dead letter, for the users it concerns: a user sees the monitoring jobs set aside for repositories
-- they have (through an installation they linked), with the reason, the attempts and when. Nothing of
-- another user's repository, and no payload beyond what identifies the job (kind, commit or pull request).
-- The API's `GET /api/monitor/dead-jobs` (lib/services/monitor-status.ts).

-- Up to `p_limit` (1..200) dead jobs of the user's repositories, newest first:
-- {dead_jobs: [{kind, repo_id, full_name, sha?, pull_number?, attempts, reason, finished_at}]}.
create function public.monitor_dead_jobs(p_user_id uuid, p_limit integer) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object('dead_jobs', coalesce(json_agg(json_strip_nulls(json_build_object(
           'kind', d.kind, 'repo_id', d.repo_id, 'full_name', d.full_name, 'sha', d.sha, 'pull_number', d.pull_number,
           'attempts', d.attempts, 'reason', d.reason, 'finished_at', d.finished_at)) order by d.finished_at desc, d.job_key), '[]'::json))
  from (
    select j.job_key, j.kind, r.id as repo_id, r.full_name,
           coalesce(a.message->>'sha', a.message->>'headSha') as sha,
           (a.message->>'pullNumber')::bigint as pull_number,
           coalesce(j.attempts, 0) as attempts, coalesce(j.last_error, '') as reason, j.finished_at
    from public.monitor_jobs j
    join public.repositories r on r.user_id = p_user_id and r.installation_id = j.installation_id and r.github_id = j.repo_id
    left join pgmq.a_monitor a on a.msg_id = j.msg_id
    where j.state = 'dead'
    order by j.finished_at desc, j.job_key
    limit least(greatest(coalesce(p_limit, 100), 1), 200)
  ) d
$$;

revoke execute on function public.monitor_dead_jobs(uuid, integer) from public, anon, authenticated;
grant execute on function public.monitor_dead_jobs(uuid, integer) to service_role;

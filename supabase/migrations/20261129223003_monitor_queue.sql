-- The monitoring queue (issue 28): jobs that GitHub's webhooks and the daily schedule start (a scan of a
-- pushed commit, a pull request's check, a re-check of the online audits), drained in bounded batches by
-- cron-triggered functions and by the webhook handler (lib/queue). Why SQL functions here rather than pg-boss,
-- Graphile Worker or pgmq: docs/deployment.md, "The monitoring queue".
--
-- A job is one row from enqueue to the end of its idempotency window:
--   queued  -> running (claimed: a lease, attempts + 1) -> done (kept 7 days, so a redelivery enqueues nothing)
--                                                        -> queued again (failed: retried after a backoff)
--                                                        -> dead (failed for the last time: the reason is kept)
-- A drain that dies mid-job leaves a lease that runs out: the job is queued again (or, at its last attempt,
-- dead). Claiming takes `for update skip locked` rows, so concurrent drainers never take the same job, and an
-- advisory lock per installation while counting its running jobs, so its concurrency cap holds under races.
--
-- Payloads hold GitHub ids and SHAs only, never a token. No client role may read or write the table; only
-- service_role executes the functions.

create table public.monitor_jobs (
  id bigint generated always as identity primary key,
  -- kind + installation + repository + commit (a re-check: + day); a second enqueue of a key does nothing.
  job_key text not null unique check (job_key ~ '^[a-z-]{1,16}(:[0-9a-z-]{1,64}){2,4}$'),
  kind text not null check (kind in ('push-scan', 'pr-check', 'recheck')),
  installation_id bigint not null check (installation_id > 0),
  repo_id bigint not null check (repo_id > 0),
  payload jsonb not null check (jsonb_typeof(payload) = 'object' and length(payload::text) <= 2048),
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'dead')),
  attempts integer not null default 0 check (attempts >= 0),
  run_after timestamptz not null default clock_timestamp(),
  lease_token uuid null,
  leased_until timestamptz null,
  last_error text null check (length(last_error) <= 1000),
  enqueued_at timestamptz not null default clock_timestamp(),
  finished_at timestamptz null,
  check ((state = 'running') = (lease_token is not null and leased_until is not null)),
  check ((state in ('done', 'dead')) = (finished_at is not null))
);
create index monitor_jobs_ready_idx on public.monitor_jobs (run_after, id) where state = 'queued';
create index monitor_jobs_running_idx on public.monitor_jobs (installation_id, leased_until) where state = 'running';
create index monitor_jobs_finished_idx on public.monitor_jobs (finished_at) where state in ('done', 'dead');

alter table public.monitor_jobs enable row level security;
revoke all on table public.monitor_jobs from public, anon, authenticated;
grant select, insert, update, delete on table public.monitor_jobs to service_role;

-- Enqueues jobs (at most 1,000): `[{key, kind, installation_id, repo_id, payload, delay_seconds?}]`. A job is
-- only taken for an installation someone linked and GitHub has not suspended, and a repository of it that
-- some user has; a key already present (queued, running, done within its window or dead) adds nothing.
-- {enqueued: keys added}.
create function public.monitor_enqueue(p_jobs jsonb) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_keys text[];
begin
  if jsonb_typeof(p_jobs) is distinct from 'array' or jsonb_array_length(p_jobs) > 1000 then
    raise exception using errcode = '22023', message = 'jobs must be an array of at most 1000';
  end if;
  with wanted as (
    select j->>'key' as job_key, j->>'kind' as kind, (j->>'installation_id')::bigint as installation_id,
           (j->>'repo_id')::bigint as repo_id, j->'payload' as payload,
           clock_timestamp() + make_interval(secs => least(greatest(coalesce((j->>'delay_seconds')::integer, 0), 0), 86400)) as run_after
    from jsonb_array_elements(p_jobs) as j
  ), added as (
    insert into public.monitor_jobs (job_key, kind, installation_id, repo_id, payload, run_after)
    select w.job_key, w.kind, w.installation_id, w.repo_id, w.payload, w.run_after
    from wanted w
    where exists (select 1 from public.repositories r where r.installation_id = w.installation_id and r.github_id = w.repo_id)
      and not exists (select 1 from public.suspended_installations s where s.installation_id = w.installation_id)
    on conflict (job_key) do nothing
    returning job_key
  )
  select coalesce(array_agg(job_key order by job_key), '{}') into v_keys from added;
  return json_build_object('enqueued', to_json(v_keys));
end
$$;

-- The daily re-check: one `recheck` job per (installation, repository) with a scan recorded in the last
-- `p_since_days` days, keyed by `p_day` (a second run that day adds nothing), at most `p_limit`.
-- {enqueued: count}.
create function public.monitor_enqueue_rechecks(p_day date, p_since_days integer, p_limit integer) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_count integer;
begin
  if p_day is null or p_since_days is null or p_since_days < 1 or p_since_days > 366 or p_limit is null or p_limit < 1 then
    raise exception using errcode = '22023', message = 'day, since_days (1..366) and limit (>= 1) are required';
  end if;
  with recent as (
    select distinct r.installation_id, r.github_id
    from public.scans s
    join public.repositories r on r.id = s.repository_id and r.user_id = s.user_id
    where s.created_at > clock_timestamp() - make_interval(days => p_since_days)
      and not exists (select 1 from public.suspended_installations x where x.installation_id = r.installation_id)
    order by r.installation_id, r.github_id
    limit p_limit
  ), added as (
    insert into public.monitor_jobs (job_key, kind, installation_id, repo_id, payload)
    select format('recheck:%s:%s:%s', installation_id, github_id, to_char(p_day, 'YYYY-MM-DD')), 'recheck', installation_id, github_id,
           jsonb_build_object('kind', 'recheck', 'installationId', installation_id, 'repoId', github_id)
    from recent
    on conflict (job_key) do nothing
    returning 1
  )
  select count(*) into v_count from added;
  return json_build_object('enqueued', v_count);
end
$$;

-- Claims up to `p_limit` ready jobs for one drain: each gets a lease of `p_lease_seconds` and one more
-- attempt. First, jobs whose lease ran out (their drain died) are queued again, or dead when that was their
-- `p_max_attempts`th attempt. An installation never has more than `p_concurrency` jobs running, and each job
-- claimed spends one unit of the installation's `monitor_jobs` budget (consume_installation_rate_limit,
-- `p_budget` per `p_budget_window_seconds`); an installation whose budget is spent has its ready jobs put off
-- until the window resets. Installations take turns by their oldest ready job. `p_installation_ids` (null: all)
-- narrows the claim to those installations: the webhook's drain takes the jobs its own delivery started.
-- [{id, lease_token, attempt, payload, enqueued_at}].
create function public.monitor_claim(
  p_limit integer,
  p_lease_seconds integer,
  p_max_attempts integer,
  p_concurrency integer,
  p_budget integer,
  p_budget_window_seconds integer,
  p_installation_ids jsonb default null
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_now constant timestamptz := clock_timestamp();
  v_out jsonb := '[]';
  v_claimed integer := 0;
  v_installation bigint;
  v_running integer;
  v_job bigint;
  v_budget json;
  v_row public.monitor_jobs;
  v_ids bigint[];
begin
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_lease_seconds is null or p_lease_seconds < 1
     or p_max_attempts is null or p_max_attempts < 1 or p_concurrency is null or p_concurrency < 1
     or p_budget is null or p_budget < 1 or p_budget_window_seconds is null or p_budget_window_seconds < 1 then
    raise exception using errcode = '22023', message = 'limit (1..100), lease, max_attempts, concurrency and budget must be positive';
  end if;
  if p_installation_ids is not null then
    if jsonb_typeof(p_installation_ids) <> 'array' or jsonb_array_length(p_installation_ids) > 100 then
      raise exception using errcode = '22023', message = 'installation_ids must be an array of at most 100';
    end if;
    v_ids := array(select jsonb_array_elements_text(p_installation_ids)::bigint);
  end if;

  update public.monitor_jobs j
     set state = case when j.attempts >= p_max_attempts then 'dead' else 'queued' end,
         last_error = case when j.attempts >= p_max_attempts then 'the last attempt did not finish within its lease' else 'an attempt did not finish within its lease' end,
         finished_at = case when j.attempts >= p_max_attempts then v_now end,
         run_after = v_now, lease_token = null, leased_until = null
   where j.id in (
     select e.id from public.monitor_jobs e
      where e.state = 'running' and e.leased_until < v_now
      order by e.leased_until
      limit 100
      for update skip locked
   );

  for v_installation in
    select q.installation_id from public.monitor_jobs q
     where q.state = 'queued' and q.run_after <= v_now
       and (v_ids is null or q.installation_id = any (v_ids))
     group by q.installation_id
     order by min(q.run_after), q.installation_id
     limit p_limit * 4
  loop
    exit when v_claimed >= p_limit;
    -- One claimer at a time counts and claims an installation's jobs (released at commit); another skips it.
    continue when not pg_try_advisory_xact_lock(280003, hashtext(v_installation::text));
    select count(*) into v_running from public.monitor_jobs r where r.installation_id = v_installation and r.state = 'running';
    continue when v_running >= p_concurrency;
    for v_job in
      select q.id from public.monitor_jobs q
       where q.installation_id = v_installation and q.state = 'queued' and q.run_after <= v_now
       order by q.run_after, q.id
       limit least(p_concurrency - v_running, p_limit - v_claimed)
       for update skip locked
    loop
      v_budget := public.consume_installation_rate_limit(v_installation, 'monitor_jobs', p_budget, p_budget_window_seconds);
      if not (v_budget->>'allowed')::boolean then
        update public.monitor_jobs p set run_after = (v_budget->>'reset_at')::timestamptz
         where p.id in (
           select q.id from public.monitor_jobs q
            where q.installation_id = v_installation and q.state = 'queued' and q.run_after < (v_budget->>'reset_at')::timestamptz
            for update skip locked
         );
        exit;
      end if;
      update public.monitor_jobs c
         set state = 'running', attempts = c.attempts + 1, lease_token = gen_random_uuid(),
             leased_until = v_now + make_interval(secs => p_lease_seconds)
       where c.id = v_job
       returning c.* into v_row;
      v_out := v_out || jsonb_build_array(jsonb_build_object(
        'id', v_row.id, 'lease_token', v_row.lease_token, 'attempt', v_row.attempts,
        'payload', v_row.payload, 'enqueued_at', v_row.enqueued_at));
      v_claimed := v_claimed + 1;
    end loop;
  end loop;
  return v_out::json;
end
$$;

-- Ends one attempt of a claimed job, if the lease is still this drain's (`p_lease_token`):
--   done   the job ran: kept as done for its idempotency window;
--   retry  it failed: queued again after `p_after_seconds`, the reason kept;
--   defer  it could not start (budget, GitHub's rate limit): queued again after `p_after_seconds`, and the
--          attempt is not counted;
--   dead   it failed for the last time, or retrying cannot help: set aside with the reason.
-- {settled: false} when the lease was lost (it ran out and another drain has the job).
create function public.monitor_settle(p_id bigint, p_lease_token uuid, p_outcome text, p_reason text, p_after_seconds integer)
returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_now constant timestamptz := clock_timestamp();
  v_after constant interval := make_interval(secs => least(greatest(coalesce(p_after_seconds, 0), 0), 86400));
  v_found boolean;
begin
  if p_outcome is null or p_outcome not in ('done', 'retry', 'defer', 'dead') then
    raise exception using errcode = '22023', message = 'outcome must be done, retry, defer or dead';
  end if;
  update public.monitor_jobs j
     set state = case p_outcome when 'done' then 'done' when 'dead' then 'dead' else 'queued' end,
         attempts = case when p_outcome = 'defer' then greatest(j.attempts - 1, 0) else j.attempts end,
         run_after = case when p_outcome in ('retry', 'defer') then v_now + v_after else j.run_after end,
         last_error = case when p_outcome = 'done' then j.last_error else left(p_reason, 1000) end,
         finished_at = case when p_outcome in ('done', 'dead') then v_now end,
         lease_token = null, leased_until = null
   where j.id = p_id and j.state = 'running' and j.lease_token = p_lease_token;
  v_found := found;
  return json_build_object('settled', v_found);
end
$$;

-- Deletes done jobs finished more than `p_done_days` days ago (their keys may be enqueued again) and dead
-- jobs after `p_dead_days`, at most `p_limit` rows. {deleted}.
create function public.monitor_prune(p_done_days integer, p_dead_days integer, p_limit integer) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (
    delete from public.monitor_jobs j
     where j.id in (
       select o.id from public.monitor_jobs o
        where (o.state = 'done' and o.finished_at < clock_timestamp() - make_interval(days => p_done_days))
           or (o.state = 'dead' and o.finished_at < clock_timestamp() - make_interval(days => p_dead_days))
        order by o.finished_at
        limit greatest(p_limit, 0)
        for update skip locked
     )
    returning 1
  )
  select json_build_object('deleted', count(*)) from gone
$$;

-- How the queue stands, for the drain's log line: {queued, ready, running, done, dead, oldest_ready_seconds}.
create function public.monitor_stats() returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'queued', count(*) filter (where state = 'queued'),
    'ready', count(*) filter (where state = 'queued' and run_after <= clock_timestamp()),
    'running', count(*) filter (where state = 'running'),
    'done', count(*) filter (where state = 'done'),
    'dead', count(*) filter (where state = 'dead'),
    'oldest_ready_seconds', coalesce(floor(extract(epoch from clock_timestamp() - min(run_after) filter (where state = 'queued' and run_after <= clock_timestamp()))), 0)
  )
  from public.monitor_jobs
$$;

revoke execute on function public.monitor_enqueue(jsonb) from public, anon, authenticated;
revoke execute on function public.monitor_enqueue_rechecks(date, integer, integer) from public, anon, authenticated;
revoke execute on function public.monitor_claim(integer, integer, integer, integer, integer, integer, jsonb) from public, anon, authenticated;
revoke execute on function public.monitor_settle(bigint, uuid, text, text, integer) from public, anon, authenticated;
revoke execute on function public.monitor_prune(integer, integer, integer) from public, anon, authenticated;
revoke execute on function public.monitor_stats() from public, anon, authenticated;
grant execute on function public.monitor_enqueue(jsonb) to service_role;
grant execute on function public.monitor_enqueue_rechecks(date, integer, integer) to service_role;
grant execute on function public.monitor_claim(integer, integer, integer, integer, integer, integer, jsonb) to service_role;
grant execute on function public.monitor_settle(bigint, uuid, text, text, integer) to service_role;
grant execute on function public.monitor_prune(integer, integer, integer) to service_role;
grant execute on function public.monitor_stats() to service_role;

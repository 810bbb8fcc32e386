-- The monitoring queue moves onto pgmq (Supabase Queues): pgmq keeps the messages (a job's ids-only payload),
-- their visibility timeouts (a job due later, a claimed job's lease: a drain that dies leaves a message that
-- becomes visible again when its lease ends), the read count each read increments (the attempt count), the
-- `for update skip locked` read that gives concurrent drainers disjoint jobs, and the archive a dead job is
-- moved to. Why pgmq, and what stays ours: docs/deployment.md, "The monitoring queue".
--
-- Ours, in `monitor_jobs`, is only what pgmq does not do: the idempotency key (kind + installation +
-- repository + commit: a second enqueue of a key does nothing while the job is queued, running, done within
-- its window or dead within its), the per-installation concurrency cap and budget (a read job over either is
-- held back, and that read is not an attempt), and the failure reason kept with a dead job.
--
--   queued  (a pgmq message; due now or later)
--     -> running (read: leased until the message's visibility timeout)
--          -> done (message deleted; the key kept 7 days)  -> queued again (failed: visible after a backoff)
--          -> dead (message archived; kept with the key and the reason 30 days)
--     -> waiting (read while its installation ran its cap of jobs: hidden until a job of the installation
--                 settles, or at the latest until their leases end)
--
-- pgmq 1.5 or later (read's `conditional` filter narrows a drain to its installations); only functions that
-- version has are called (set_vt with seconds, not a timestamp). PGlite loads it with
-- @electric-sql/pglite-pgmq; a Postgres server needs it installed (scripts/install-pgmq.sh); Supabase hosts it.

create extension if not exists pgmq;

do $$
declare
  v_version text := (select extversion from pg_catalog.pg_extension where extname = 'pgmq');
begin
  if string_to_array(split_part(v_version, '-', 1), '.')::int[] < array[1, 5] then
    raise exception 'the monitoring queue needs pgmq 1.5 or later (installed: %): alter extension pgmq update', v_version;
  end if;
end
$$;

select pgmq.create('monitor');

-- The old queue's jobs, carried over: queued and running ones become messages (a running one's drain is
-- gone with the old functions: it runs again), done and dead ones keep their keys and reasons.
create table public.monitor_jobs_pgmq (
  job_key text primary key check (job_key ~ '^[a-z-]{1,16}(:[0-9a-z-]{1,64}){2,4}$'),
  kind text not null check (kind in ('push-scan', 'pr-check', 'recheck')),
  installation_id bigint not null check (installation_id > 0),
  repo_id bigint not null check (repo_id > 0),
  -- The job's pgmq message (pgmq.q_monitor while queued or running, pgmq.a_monitor once dead); set by
  -- monitor_enqueue in the transaction that adds the row. Null for a job carried over done or dead from the
  -- queue before pgmq.
  msg_id bigint null unique,
  state text not null default 'queued' check (state in ('queued', 'waiting', 'running', 'done', 'dead')),
  -- pgmq counts every read; this is what the attempt number subtracts from it: the reads that were no
  -- attempt (held back by the cap or the budget, deferred by the handler), less the attempts a job made
  -- before it came into pgmq. attempt = read_ct - read_offset.
  read_offset integer not null default 0,
  -- The attempts a finished job took (read_ct - read_offset when its message left the queue).
  attempts integer null check (attempts >= 0),
  last_error text null check (length(last_error) <= 1000),
  enqueued_at timestamptz not null default clock_timestamp(),
  finished_at timestamptz null,
  check ((state in ('done', 'dead')) = (finished_at is not null))
);

do $$
declare
  v_job record;
  v_msg bigint;
begin
  for v_job in select * from public.monitor_jobs order by id loop
    v_msg := null;
    if v_job.state in ('queued', 'running') then
      select pgmq.send('monitor', v_job.payload, greatest(ceil(extract(epoch from v_job.run_after - clock_timestamp())), 0)::integer) into v_msg;
    end if;
    insert into public.monitor_jobs_pgmq (job_key, kind, installation_id, repo_id, msg_id, state, read_offset, attempts, last_error, enqueued_at, finished_at)
    values (v_job.job_key, v_job.kind, v_job.installation_id, v_job.repo_id, v_msg,
            case when v_job.state in ('done', 'dead') then v_job.state else 'queued' end,
            -v_job.attempts, case when v_job.state in ('done', 'dead') then v_job.attempts end,
            v_job.last_error, v_job.enqueued_at, v_job.finished_at);
  end loop;
end
$$;

drop function public.monitor_enqueue(jsonb);
drop function public.monitor_enqueue_rechecks(date, integer, integer);
drop function public.monitor_claim(integer, integer, integer, integer, integer, integer, jsonb);
drop function public.monitor_settle(bigint, uuid, text, text, integer);
drop function public.monitor_prune(integer, integer, integer);
drop function public.monitor_stats();
drop table public.monitor_jobs;
alter table public.monitor_jobs_pgmq rename to monitor_jobs;
alter table public.monitor_jobs rename constraint monitor_jobs_pgmq_pkey to monitor_jobs_pkey;
alter table public.monitor_jobs rename constraint monitor_jobs_pgmq_msg_id_key to monitor_jobs_msg_id_key;
-- The installation's running and held-back jobs (the cap, the wake-up), and the jobs past their windows.
create index monitor_jobs_installation_idx on public.monitor_jobs (installation_id, state, msg_id) where state in ('running', 'waiting');
create index monitor_jobs_finished_idx on public.monitor_jobs (finished_at) where state in ('done', 'dead');

alter table public.monitor_jobs enable row level security;
revoke all on table public.monitor_jobs from public, anon, authenticated;
grant select, insert, update, delete on table public.monitor_jobs to service_role;

-- pgmq's objects are the service role's only (the functions below run as it). The browser roles get nothing:
-- the schema is not exposed through the API, and not usable by them either.
revoke all on schema pgmq from public, anon, authenticated;
grant usage on schema pgmq to service_role;
grant select, insert, update, delete on table pgmq.q_monitor, pgmq.a_monitor to service_role;
grant usage, select on sequence pgmq.q_monitor_msg_id_seq to service_role;
grant execute on all functions in schema pgmq to service_role;

-- Enqueues jobs (at most 1,000): `[{key, kind, installation_id, repo_id, payload, delay_seconds?}]`. A job is
-- only taken for an installation someone linked and GitHub has not suspended, and a repository of it that
-- some user has; a key already present (queued, running, done within its window or dead) adds nothing.
-- Each new key's payload is sent to pgmq. {enqueued: keys added}.
create function public.monitor_enqueue(p_jobs jsonb) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_keys text[] := '{}';
  v_job record;
begin
  if jsonb_typeof(p_jobs) is distinct from 'array' or jsonb_array_length(p_jobs) > 1000 then
    raise exception using errcode = '22023', message = 'jobs must be an array of at most 1000';
  end if;
  if exists (select 1 from jsonb_array_elements(p_jobs) j where jsonb_typeof(j->'payload') is distinct from 'object' or length((j->'payload')::text) > 2048) then
    raise exception using errcode = '22023', message = 'a payload must be an object of at most 2048 characters';
  end if;
  for v_job in
    with wanted as (
      select j->>'key' as job_key, j->>'kind' as kind, (j->>'installation_id')::bigint as installation_id,
             (j->>'repo_id')::bigint as repo_id, j->'payload' as payload,
             least(greatest(coalesce((j->>'delay_seconds')::integer, 0), 0), 86400) as delay, j.n
      from jsonb_array_elements(p_jobs) with ordinality as j(j, n)
    ), added as (
      insert into public.monitor_jobs (job_key, kind, installation_id, repo_id)
      select w.job_key, w.kind, w.installation_id, w.repo_id
      from wanted w
      where exists (select 1 from public.repositories r where r.installation_id = w.installation_id and r.github_id = w.repo_id)
        and not exists (select 1 from public.suspended_installations s where s.installation_id = w.installation_id)
      on conflict (job_key) do nothing
      returning job_key
    )
    select a.job_key, w.payload, w.delay from added a join wanted w using (job_key) order by w.n
  loop
    -- In the order given: pgmq hands out the oldest message first.
    update public.monitor_jobs set msg_id = (select pgmq.send('monitor', v_job.payload, v_job.delay)) where job_key = v_job.job_key;
    v_keys := v_keys || v_job.job_key;
  end loop;
  return json_build_object('enqueued', to_json(array(select unnest(v_keys) order by 1)));
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
  v_count integer := 0;
  v_job record;
begin
  if p_day is null or p_since_days is null or p_since_days < 1 or p_since_days > 366 or p_limit is null or p_limit < 1 then
    raise exception using errcode = '22023', message = 'day, since_days (1..366) and limit (>= 1) are required';
  end if;
  for v_job in
    with recent as (
      select distinct r.installation_id, r.github_id
      from public.scans s
      join public.repositories r on r.id = s.repository_id and r.user_id = s.user_id
      where s.created_at > clock_timestamp() - make_interval(days => p_since_days)
        and not exists (select 1 from public.suspended_installations x where x.installation_id = r.installation_id)
      order by r.installation_id, r.github_id
      limit p_limit
    )
    insert into public.monitor_jobs (job_key, kind, installation_id, repo_id)
    select format('recheck:%s:%s:%s', installation_id, github_id, to_char(p_day, 'YYYY-MM-DD')), 'recheck', installation_id, github_id
    from recent
    on conflict (job_key) do nothing
    returning job_key, installation_id, repo_id
  loop
    update public.monitor_jobs
       set msg_id = (select pgmq.send('monitor', jsonb_build_object('kind', 'recheck', 'installationId', v_job.installation_id, 'repoId', v_job.repo_id), 0))
     where job_key = v_job.job_key;
    v_count := v_count + 1;
  end loop;
  return json_build_object('enqueued', v_count);
end
$$;

-- Claims up to `p_limit` jobs for one drain: pgmq.read gives the oldest visible messages (skipping those
-- another drain holds) with a lease of `p_lease_seconds`, then each is checked against what pgmq does not
-- know. A message read for the (`p_max_attempts` + 1)th attempt is one whose last attempt's drain died: it is
-- archived, dead. Then, one claimer at a time per installation (an advisory lock; a claimer that cannot have
-- it now hands the message back, visible at once): an installation already running `p_concurrency` jobs has
-- the message held back (`waiting`, until one of its jobs settles or their leases end); one whose
-- `monitor_jobs` budget (consume_installation_rate_limit, `p_budget` per `p_budget_window_seconds`) is spent
-- has it put off to the window's reset, with the installation's other jobs due before then. None of these
-- reads counts as an attempt. Up to 4 reads, so that held-back messages do not leave a claim short. `p_installation_ids` (null: all) narrows it to those installations
-- (pgmq.read's `conditional` filter): the webhook's drain takes the jobs its own delivery started.
-- [{id, read_ct, attempt, payload, enqueued_at}]: `id` is the pgmq message, `read_ct` the lease.
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
  v_out jsonb := '[]';
  v_claimed integer := 0;
  v_filters jsonb[];
  v_filter jsonb;
  v_round integer;
  v_read integer;
  v_msg record;
  v_job public.monitor_jobs;
  v_installation bigint;
  v_attempt integer;
  v_running integer;
  v_until timestamptz;
  v_budget json;
  v_reset_in integer;
  v_other bigint;
begin
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_lease_seconds is null or p_lease_seconds < 1
     or p_max_attempts is null or p_max_attempts < 1 or p_concurrency is null or p_concurrency < 1
     or p_budget is null or p_budget < 1 or p_budget_window_seconds is null or p_budget_window_seconds < 1 then
    raise exception using errcode = '22023', message = 'limit (1..100), lease, max_attempts, concurrency and budget must be positive';
  end if;
  if p_installation_ids is null then
    v_filters := array['{}'::jsonb];
  else
    if jsonb_typeof(p_installation_ids) <> 'array' or jsonb_array_length(p_installation_ids) > 100 then
      raise exception using errcode = '22023', message = 'installation_ids must be an array of at most 100';
    end if;
    v_filters := array(select jsonb_build_object('installationId', i::bigint) from jsonb_array_elements_text(p_installation_ids) as i);
  end if;

  for v_round in 1..4 loop
    exit when v_claimed >= p_limit;
    v_read := 0;
    foreach v_filter in array v_filters loop
      exit when v_claimed >= p_limit;
      for v_msg in select m.msg_id, m.read_ct, m.message from pgmq.read('monitor', p_lease_seconds, p_limit - v_claimed, v_filter) m loop
        v_read := v_read + 1;
        select * into v_job from public.monitor_jobs j where j.msg_id = v_msg.msg_id for update;
        if not found or v_job.state in ('done', 'dead') then
          -- A message no job owns (or owns no longer): nothing to run.
          perform pgmq.archive('monitor', v_msg.msg_id);
          continue;
        end if;
        v_installation := v_job.installation_id;
        v_attempt := v_msg.read_ct - v_job.read_offset;
        if v_attempt > p_max_attempts then
          perform pgmq.archive('monitor', v_msg.msg_id);
          update public.monitor_jobs set state = 'dead', finished_at = clock_timestamp(), attempts = v_attempt - 1,
                 last_error = 'the last attempt did not finish within its lease'
           where job_key = v_job.job_key;
          continue;
        end if;
        if not pg_try_advisory_xact_lock(280003, hashtext(v_installation::text)) then
          -- Another drain is claiming this installation's jobs right now: back to the queue, visible at once.
          perform pgmq.set_vt('monitor', v_msg.msg_id, 0);
          update public.monitor_jobs set read_offset = read_offset + 1, state = 'queued' where job_key = v_job.job_key;
          continue;
        end if;
        select count(*), max(q.vt) into v_running, v_until
          from public.monitor_jobs r join pgmq.q_monitor q on q.msg_id = r.msg_id
         where r.installation_id = v_installation and r.state = 'running' and q.vt > clock_timestamp() and r.msg_id <> v_msg.msg_id;
        if v_running >= p_concurrency then
          perform pgmq.set_vt('monitor', v_msg.msg_id, ceil(extract(epoch from v_until - clock_timestamp()))::integer);
          update public.monitor_jobs set read_offset = read_offset + 1, state = 'waiting' where job_key = v_job.job_key;
          continue;
        end if;
        v_budget := public.consume_installation_rate_limit(v_installation, 'monitor_jobs', p_budget, p_budget_window_seconds);
        if not (v_budget->>'allowed')::boolean then
          v_reset_in := greatest(ceil(extract(epoch from (v_budget->>'reset_at')::timestamptz - clock_timestamp())), 1)::integer;
          perform pgmq.set_vt('monitor', v_msg.msg_id, v_reset_in);
          update public.monitor_jobs set read_offset = read_offset + 1, state = 'queued' where job_key = v_job.job_key;
          -- And the installation's other jobs due before the reset (those no other drain holds now), so that
          -- they are not read one by one to be put off.
          for v_other in
            select q.msg_id from pgmq.q_monitor q join public.monitor_jobs w on w.msg_id = q.msg_id
             where w.installation_id = v_installation and w.state in ('queued', 'waiting')
               and q.vt < clock_timestamp() + make_interval(secs => v_reset_in)
             for update of q skip locked
          loop
            perform pgmq.set_vt('monitor', v_other, v_reset_in);
            update public.monitor_jobs set state = 'queued' where msg_id = v_other;
          end loop;
          continue;
        end if;
        update public.monitor_jobs
           set state = 'running',
               last_error = case when v_job.state = 'running' then 'an attempt did not finish within its lease' else last_error end
         where job_key = v_job.job_key;
        v_out := v_out || jsonb_build_array(jsonb_build_object(
          'id', v_msg.msg_id, 'read_ct', v_msg.read_ct, 'attempt', v_attempt,
          'payload', v_msg.message, 'enqueued_at', v_job.enqueued_at));
        v_claimed := v_claimed + 1;
      end loop;
    end loop;
    exit when v_read = 0;
  end loop;
  return v_out::json;
end
$$;

-- Ends one attempt of a claimed job, if its lease is still the caller's: the message is still in the queue
-- and pgmq has not handed it out again since (its read count is still `p_read_ct`).
--   done   the job ran: the message is deleted, the key kept for its idempotency window;
--   retry  it failed: the message is visible again after `p_after_seconds`, the reason kept;
--   defer  it could not start (budget, GitHub's rate limit): the same, and the read is not an attempt;
--   dead   it failed for the last time, or retrying cannot help: the message is archived, the reason kept.
-- The slot the job held is free: the installation's oldest held-back job is made visible.
-- {settled: false} when the lease was lost (it ran out and another drain has the job).
create function public.monitor_settle(p_id bigint, p_read_ct integer, p_outcome text, p_reason text, p_after_seconds integer)
returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_after constant integer := least(greatest(coalesce(p_after_seconds, 0), 0), 86400);
  v_read_ct integer;
  v_job public.monitor_jobs;
  v_wake bigint;
begin
  if p_outcome is null or p_outcome not in ('done', 'retry', 'defer', 'dead') then
    raise exception using errcode = '22023', message = 'outcome must be done, retry, defer or dead';
  end if;
  -- The message first, then the job (the order claims take them in), so a claim and a settle never wait on
  -- each other in a circle.
  select q.read_ct into v_read_ct from pgmq.q_monitor q where q.msg_id = p_id for update;
  if not found or v_read_ct is distinct from p_read_ct then
    return json_build_object('settled', false);
  end if;
  select * into v_job from public.monitor_jobs j where j.msg_id = p_id for update;
  if not found or v_job.state <> 'running' then
    return json_build_object('settled', false);
  end if;
  if p_outcome = 'done' then
    perform pgmq.delete('monitor', p_id);
  elsif p_outcome = 'dead' then
    perform pgmq.archive('monitor', p_id);
  else
    perform pgmq.set_vt('monitor', p_id, v_after);
  end if;
  update public.monitor_jobs
     set state = case p_outcome when 'done' then 'done' when 'dead' then 'dead' else 'queued' end,
         read_offset = case when p_outcome = 'defer' then read_offset + 1 else read_offset end,
         attempts = case when p_outcome in ('done', 'dead') then v_read_ct - read_offset end,
         last_error = case when p_outcome = 'done' then last_error else left(p_reason, 1000) end,
         finished_at = case when p_outcome in ('done', 'dead') then clock_timestamp() end
   where job_key = v_job.job_key;

  -- Wake the installation's oldest held-back job whose message nobody holds. After any claim of the
  -- installation's jobs under way has committed (its lock), so that a job it is holding back is seen here.
  perform pg_advisory_xact_lock(280003, hashtext(v_job.installation_id::text));
  for v_wake in
    select w.msg_id from public.monitor_jobs w
     where w.installation_id = v_job.installation_id and w.state = 'waiting'
     order by w.msg_id
     limit 4
  loop
    perform 1 from pgmq.q_monitor q where q.msg_id = v_wake for update skip locked;
    continue when not found;
    perform pgmq.set_vt('monitor', v_wake, 0);
    update public.monitor_jobs set state = 'queued' where msg_id = v_wake and state = 'waiting';
    exit;
  end loop;
  return json_build_object('settled', true);
end
$$;

-- Deletes done jobs finished more than `p_done_days` days ago (their keys may be enqueued again) and dead
-- jobs after `p_dead_days`, with their archived messages, at most `p_limit` jobs. {deleted}.
create function public.monitor_prune(p_done_days integer, p_dead_days integer, p_limit integer) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_gone bigint[];
  v_count integer;
begin
  with gone as (
    delete from public.monitor_jobs j
     where j.job_key in (
       select o.job_key from public.monitor_jobs o
        where (o.state = 'done' and o.finished_at < clock_timestamp() - make_interval(days => p_done_days))
           or (o.state = 'dead' and o.finished_at < clock_timestamp() - make_interval(days => p_dead_days))
        order by o.finished_at
        limit greatest(p_limit, 0)
        for update skip locked
     )
    returning j.msg_id, j.state
  )
  select coalesce(array_agg(msg_id) filter (where msg_id is not null), '{}'), count(*) into v_gone, v_count from gone;
  delete from pgmq.a_monitor a where a.msg_id = any (v_gone);
  return json_build_object('deleted', v_count);
end
$$;

-- How the queue stands, for logs: {queued, ready, running, done, dead, oldest_ready_seconds}. `queued`
-- counts held-back jobs too; `ready` the messages visible now.
create function public.monitor_stats() returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'queued', count(*) filter (where j.state in ('queued', 'waiting')),
    'ready', count(*) filter (where j.state in ('queued', 'waiting', 'running') and q.vt <= clock_timestamp()),
    'running', count(*) filter (where j.state = 'running' and q.vt > clock_timestamp()),
    'done', count(*) filter (where j.state = 'done'),
    'dead', count(*) filter (where j.state = 'dead'),
    'oldest_ready_seconds', coalesce(floor(extract(epoch from clock_timestamp() - min(q.vt) filter (where q.vt <= clock_timestamp()))), 0)
  )
  from public.monitor_jobs j left join pgmq.q_monitor q on q.msg_id = j.msg_id
$$;

revoke execute on function public.monitor_enqueue(jsonb) from public, anon, authenticated;
revoke execute on function public.monitor_enqueue_rechecks(date, integer, integer) from public, anon, authenticated;
revoke execute on function public.monitor_claim(integer, integer, integer, integer, integer, integer, jsonb) from public, anon, authenticated;
revoke execute on function public.monitor_settle(bigint, integer, text, text, integer) from public, anon, authenticated;
revoke execute on function public.monitor_prune(integer, integer, integer) from public, anon, authenticated;
revoke execute on function public.monitor_stats() from public, anon, authenticated;
grant execute on function public.monitor_enqueue(jsonb) to service_role;
grant execute on function public.monitor_enqueue_rechecks(date, integer, integer) to service_role;
grant execute on function public.monitor_claim(integer, integer, integer, integer, integer, integer, jsonb) to service_role;
grant execute on function public.monitor_settle(bigint, integer, text, text, integer) to service_role;
grant execute on function public.monitor_prune(integer, integer, integer) to service_role;
grant execute on function public.monitor_stats() to service_role;

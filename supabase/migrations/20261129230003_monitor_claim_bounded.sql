-- monitor_claim looked at every ready job to pick the installations to serve (a group by over the whole
-- backlog, 10,000 rows in the queue benchmark, on every claim); it now looks at the 1,000 oldest ready jobs,
-- through the ready index, so a claim costs the same whatever the backlog. Installations still take turns by
-- their oldest ready job.
--
-- And the queue's id sequence is closed to the browser roles, as every other sequence is (Supabase's default
-- privileges grant them usage on new sequences).

revoke all on sequence public.monitor_jobs_id_seq from public, anon, authenticated;
grant usage, select on sequence public.monitor_jobs_id_seq to service_role;

create or replace function public.monitor_claim(
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
    select o.installation_id from (
      select q.installation_id, q.run_after from public.monitor_jobs q
       where q.state = 'queued' and q.run_after <= v_now
         and (v_ids is null or q.installation_id = any (v_ids))
       order by q.run_after, q.id
       limit 1000
    ) o
     group by o.installation_id
     order by min(o.run_after), o.installation_id
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

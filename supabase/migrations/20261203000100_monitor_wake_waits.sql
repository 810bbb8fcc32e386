-- A settle waits for a held-back message's lock instead of skipping it (monitor_settle's wake).
--
-- A claim's pgmq.read (`... where vt <= now ... for update skip locked`) can keep a lock on a message it does
-- not return: its snapshot saw the message visible, another claim held it back before the read reached it,
-- and Postgres locks the newest version of the row before its recheck of the condition fails. The lock lasts
-- until that claim commits. A settle that skipped locked messages then woke nothing, and the held-back job
-- waited out its whole hold (up to a lease, 2 minutes) with no job of its installation running: seen as a
-- job left `waiting` in the concurrent-drainers test. Only the wake changes; the rest is as before.

create or replace function public.monitor_settle(p_id bigint, p_read_ct integer, p_outcome text, p_reason text, p_after_seconds integer)
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

  -- Wake the installation's oldest held-back job. After any claim of the installation's jobs under way has
  -- committed (its lock), so that a job it is holding back is seen here. The message's lock is waited for,
  -- not skipped: a claim whose read saw it visible before another claim held it back keeps a lock on it
  -- without returning it (Postgres locks the newest version, then its recheck of `vt` fails), until that
  -- claim commits, a few milliseconds. Once the lock is ours the job is read again: a drain that held the
  -- message may have set it running, and then the next held-back job is woken instead.
  perform pg_advisory_xact_lock(280003, hashtext(v_job.installation_id::text));
  for v_wake in
    select w.msg_id from public.monitor_jobs w
     where w.installation_id = v_job.installation_id and w.state = 'waiting'
     order by w.msg_id
     limit 4
  loop
    perform 1 from pgmq.q_monitor q where q.msg_id = v_wake for update;
    continue when not found;
    perform 1 from public.monitor_jobs w where w.msg_id = v_wake and w.state = 'waiting' for update;
    continue when not found;
    perform pgmq.set_vt('monitor', v_wake, 0);
    update public.monitor_jobs set state = 'queued' where msg_id = v_wake;
    exit;
  end loop;
  return json_build_object('settled', true);
end
$$;


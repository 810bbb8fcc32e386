-- Per-user rate limiting of expensive API operations (scans), kept in Postgres so that the limit holds across
-- every function instance. A fixed window per (user, bucket): the first call after the window has elapsed
-- opens a new one.

create table public.rate_limits (
  user_id uuid not null references auth.users (id) on delete cascade,
  bucket text not null check (bucket ~ '^[a-z0-9_:-]{1,64}$'),
  window_started_at timestamptz not null,
  used integer not null check (used >= 0),
  primary key (user_id, bucket)
);

-- Internal bookkeeping: no browser role reads or writes it, not even its owner.
alter table public.rate_limits enable row level security;
revoke all on table public.rate_limits from public, anon, authenticated;
grant select, insert, update, delete on table public.rate_limits to service_role;

-- Counts one call against the limit and says whether it may proceed:
-- {allowed, limit, remaining, retry_after_seconds (0 when allowed), reset_at}.
-- Race-safe: the single upsert locks the (user, bucket) row, so concurrent callers are counted one after
-- another and at most p_limit of them are allowed per window. Refused calls are counted too (capped at
-- p_limit + 1), so hammering does not earn a retry sooner.
create function public.consume_rate_limit(
  p_user_id uuid,
  p_bucket text,
  p_limit integer,
  p_window_seconds integer
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_window constant interval := make_interval(secs => p_window_seconds);
  v_now constant timestamptz := clock_timestamp();
  v_row public.rate_limits;
begin
  if p_limit is null or p_limit < 1 or p_window_seconds is null or p_window_seconds < 1 then
    raise exception using errcode = '22023', message = 'limit and window must be positive';
  end if;

  insert into public.rate_limits as rl (user_id, bucket, window_started_at, used)
  values (p_user_id, p_bucket, v_now, 1)
  on conflict (user_id, bucket) do update
    set window_started_at = case
          when rl.window_started_at + v_window <= v_now then v_now
          else rl.window_started_at
        end,
        used = case
          when rl.window_started_at + v_window <= v_now then 1
          else least(rl.used + 1, p_limit + 1)
        end
  returning rl.* into v_row;

  return json_build_object(
    'allowed', v_row.used <= p_limit,
    'limit', p_limit,
    'remaining', greatest(p_limit - v_row.used, 0),
    'retry_after_seconds', case
      when v_row.used <= p_limit then 0
      else greatest(ceil(extract(epoch from (v_row.window_started_at + v_window - v_now)))::integer, 1)
    end,
    'reset_at', v_row.window_started_at + v_window
  );
end
$$;

revoke execute on function public.consume_rate_limit(uuid, text, integer, integer) from public, anon, authenticated;
grant execute on function public.consume_rate_limit(uuid, text, integer, integer) to service_role;

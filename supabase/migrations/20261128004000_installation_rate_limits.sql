-- Per-installation rate limiting of code-host work that a user who is not linked to an installation can
-- cause with it: the installation callback's membership check spends the installation's own GitHub budget,
-- so a stranger calling the callback with another organization's installation id must not be able to spend
-- it (lib/services/installations.ts). A fixed window per (installation, bucket), as rate_limits per user.

create table public.installation_rate_limits (
  installation_id bigint not null check (installation_id > 0),
  bucket text not null check (bucket ~ '^[a-z0-9_:-]{1,64}$'),
  window_started_at timestamptz not null,
  used integer not null check (used >= 0),
  primary key (installation_id, bucket)
);

alter table public.installation_rate_limits enable row level security;
revoke all on table public.installation_rate_limits from public, anon, authenticated;
grant select, insert, update, delete on table public.installation_rate_limits to service_role;

-- Counts one call against the installation's limit, as consume_rate_limit does per user:
-- {allowed, limit, remaining, retry_after_seconds (0 when allowed), reset_at}.
create function public.consume_installation_rate_limit(
  p_installation_id bigint,
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
  v_row public.installation_rate_limits;
begin
  if p_limit is null or p_limit < 1 or p_window_seconds is null or p_window_seconds < 1 then
    raise exception using errcode = '22023', message = 'limit and window must be positive';
  end if;

  insert into public.installation_rate_limits as rl (installation_id, bucket, window_started_at, used)
  values (p_installation_id, p_bucket, v_now, 1)
  on conflict (installation_id, bucket) do update
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

revoke execute on function public.consume_installation_rate_limit(bigint, text, integer, integer) from public, anon, authenticated;
grant execute on function public.consume_installation_rate_limit(bigint, text, integer, integer) to service_role;

-- A signed access token outlives its user: Supabase's tokens stay valid until they expire, also after the user
-- was deleted. The two writes such a token can reach before anything else refuses it -- a global rule
-- preference and the scan rate limit (every other write first checks that the user owns the repository or
-- the installation) -- then failed on the foreign key to auth.users (23503), which reads as a concurrent
-- change: the API answered 503 "retry", and a client retried forever. They now raise 28000
-- (invalid_authorization_specification), which the API answers with 401. Both tables' only foreign key is the
-- user's, so a foreign-key violation here can only mean that the user does not exist. The bodies are
-- unchanged but for that handler.

create or replace function public.set_rule_setting(p_user_id uuid, p_rule_id text, p_enabled boolean) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_result json;
begin
  insert into public.rule_settings as s (user_id, rule_id, enabled)
  values (p_user_id, p_rule_id, p_enabled)
  on conflict (user_id, rule_id) do update
    set enabled = excluded.enabled, updated_at = now()
  returning json_build_object('rule_id', s.rule_id, 'enabled', s.enabled, 'updated_at', s.updated_at) into v_result;
  return v_result;
exception when foreign_key_violation then
  raise exception using errcode = '28000', message = 'the user does not exist';
end
$$;

create or replace function public.consume_rate_limit(
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

  begin
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
  exception when foreign_key_violation then
    raise exception using errcode = '28000', message = 'the user does not exist';
  end;

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

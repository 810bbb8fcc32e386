-- "The latest scan" needs a total order that follows recording. created_at cannot give one: PGlite's clock
-- ticks in milliseconds, and on a server two transactions can start in the same microsecond, so scans recorded
-- back to back can tie, and a tie broken by the (random) id may pick the older scan. `seq`, drawn from a
-- sequence when the row is inserted, never ties and only grows; created_at stays for display.

alter table public.scans add column seq bigint generated always as identity;

-- Supabase's default privileges hand new sequences to the browser roles; they have no use for this one.
do $$
begin
  execute format('revoke all on sequence %s from public, anon, authenticated',
    pg_get_serial_sequence('public.scans', 'seq'));
end
$$;

drop index public.scans_latest_idx;
create index scans_latest_idx on public.scans (user_id, repository_id, seq desc);

-- The two readers of "the latest scan", unchanged but for its order.

create or replace function public.repository_combo_inputs(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(
        json_build_object(
          'file', f.file,
          'line', f.line,
          'column', f."column",
          'severity', f.severity,
          'category', f.category,
          'rule_id', f.rule_id,
          'title', f.title,
          'description', f.description,
          'recommendation', f.recommendation,
          'job', f.job,
          'fingerprint', f.fingerprint
        )
        order by f.ordinal
      )
      from (
        select s.id
        from public.scans s
        where s.user_id = p_user_id and s.repository_id = r.id
        order by s.seq desc
        limit 1
      ) latest
      join public.findings f on f.user_id = p_user_id and f.scan_id = latest.id
      left join public.rule_overrides o
        on o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = f.rule_id
      left join public.rule_settings g on g.user_id = p_user_id and g.rule_id = f.rule_id
      where coalesce(o.enabled, g.enabled, true)
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

create or replace function public.attack_path_inputs(p_user_id uuid) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
begin
  return (
    select coalesce(
      json_agg(
        json_build_object(
          'repo_id', r.id,
          'full_name', r.full_name,
          'html_url', r.html_url,
          'findings', enabled.findings
        )
      ),
      '[]'::json
    )
    from (
      select r.id, r.full_name, r.html_url
      from public.repositories r
      where r.user_id = p_user_id
      order by r.full_name, r.id
    ) r
    cross join lateral (
      select s.id
      from public.scans s
      where s.user_id = p_user_id and s.repository_id = r.id
      order by s.seq desc
      limit 1
    ) latest
    cross join lateral (
      select coalesce(
        json_agg(
          json_build_object(
            'file', f.file,
            'line', f.line,
            'column', f."column",
            'severity', f.severity,
            'category', f.category,
            'rule_id', f.rule_id,
            'title', f.title,
            'description', f.description,
            'recommendation', f.recommendation,
            'job', f.job,
            'fingerprint', f.fingerprint
          )
          order by f.ordinal
        ),
        '[]'::json
      ) as findings
      from public.findings f
      left join public.rule_overrides o
        on o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = f.rule_id
      left join public.rule_settings g on g.user_id = p_user_id and g.rule_id = f.rule_id
      where f.user_id = p_user_id and f.scan_id = latest.id and coalesce(o.enabled, g.enabled, true)
    ) enabled
  );
end
$$;

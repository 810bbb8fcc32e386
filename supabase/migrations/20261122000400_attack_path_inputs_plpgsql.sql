-- attack_path_inputs as plpgsql: a SQL-language function hands its result back through a tuplestore, which
-- spills the tens of MB of JSON for 1,000 repositories x 50 findings to a temporary file; plpgsql returns the
-- value directly (measured on Postgres 15: no temp I/O, consistently faster). Same result, same contract:
-- every repository of the user that has a scan, by full_name, with its latest scan's findings of rules
-- enabled now: [{repo_id, full_name, html_url, findings}].
--
-- Why it is fast: one index descent per repository for its latest scan, its findings read by primary key,
-- json (text) rather than jsonb aggregation, and no JIT, whose compile time would exceed the query's own.
-- Repositories are put in order before their findings are attached (a subquery's ORDER BY is kept and the
-- aggregate consumes rows in input order), so no sort ever moves the large per-repository values.
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
      order by s.created_at desc, s.id desc
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

-- `create or replace` keeps the privileges of 20261122000200; restated so this file reads on its own.
revoke execute on function public.attack_path_inputs(uuid) from public, anon, authenticated;
grant execute on function public.attack_path_inputs(uuid) to service_role;

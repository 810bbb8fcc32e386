-- Links from attack paths to the code: attack_path_inputs gains a sixth element per repository, the commit its
-- latest scan read (`scans.commit_sha`, 20261128010000_scan_commit.sql; null when the code host said none),
-- so each stage of a path links to `<html_url>/blob/<sha>/<file>#L<line>`. Otherwise as in
-- 20261128006000_dismissals.sql.

create or replace function public.attack_path_inputs(p_user_id uuid, p_rules jsonb, p_kinds jsonb) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
declare
  v_catalog text[] := array(select jsonb_object_keys(p_rules));
  v_on text[] := array(
    select k from unnest(array(select jsonb_object_keys(p_rules))) k
    where not exists (select 1 from public.rule_settings g where g.user_id = p_user_id and g.rule_id = k and not g.enabled)
  );
begin
  return (
    select coalesce(json_agg(json_build_array(r.id, r.full_name, r.html_url, picked.findings, dismissed.rows, latest.commit_sha)), '[]'::json)
    from (
      select r.id, r.full_name, r.html_url
      from public.repositories r
      where r.user_id = p_user_id
      order by r.full_name, r.id
    ) r
    cross join lateral (
      select s.id, s.rule_ids, s.commit_sha
      from public.scans s
      where s.user_id = p_user_id and s.repository_id = r.id
      order by s.seq desc
      limit 1
    ) latest
    cross join lateral (
      select coalesce(array_agg(o.rule_id) filter (where o.enabled), '{}'::text[]) as turned_on,
             coalesce(array_agg(o.rule_id) filter (where not o.enabled), '{}'::text[]) as turned_off
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = any(v_catalog)
    ) overrides
    cross join lateral (
      select coalesce(array_agg(k), '{}'::text[]) as present
      from unnest(latest.rule_ids) k
      where k = any(overrides.turned_on) or (k = any(v_on) and not k = any(overrides.turned_off))
    ) usable
    cross join lateral (
      select array_agg(distinct rule.id) as rules
      from jsonb_array_elements(p_kinds) kind
      cross join lateral jsonb_array_elements_text(kind -> 'rules') rule(id)
      where not exists (select 1 from jsonb_array_elements(kind -> 'requires') grp where not (grp ?| usable.present))
    ) needed
    cross join lateral (
      select json_agg(
        json_build_array(
          f.file, f.line, f."column", f.severity, f.rule_id, f.description,
          nullif(f.recommendation, p_rules ->> f.rule_id), f.job, f.fingerprint, f.facts
        )
        order by f.ordinal
      ) as findings
      from public.findings f
      where f.user_id = p_user_id and f.scan_id = latest.id and f.rule_id = any(needed.rules)
        and (f.rule_id = any(overrides.turned_on) or (f.rule_id = any(v_on) and not f.rule_id = any(overrides.turned_off)))
    ) picked
    cross join lateral (
      select coalesce(json_agg(json_build_array(d.fingerprint, d.kind, d.reason, d.comment, d.updated_at) order by d.fingerprint), '[]'::json) as rows
      from public.dismissals d
      where d.user_id = p_user_id and d.repository_id = r.id
    ) dismissed
    where picked.findings is not null
  );
end
$$;

revoke execute on function public.attack_path_inputs(uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.attack_path_inputs(uuid, jsonb, jsonb) to service_role;

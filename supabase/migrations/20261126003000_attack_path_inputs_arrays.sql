-- attack_path_inputs as in 20261122001000_attack_path_inputs_compact.sql, same parameters and result, with
-- less work per repository (EXPLAIN ANALYZE, 1,000 repositories x 50 findings: the two scans of each
-- repository's findings were nearly all of the function's time):
--
-- * which rules a scan has findings of is kept on the scan (`scans.rule_ids`, sorted and distinct, set by a
--   statement trigger when record_scan inserts its findings), so telling which combination kinds can fire
--   in a repository reads one array instead of its 50 findings; only the findings of those kinds are read;
-- * the rules enabled per repository are text arrays instead of `p_rules` (a 10 KB object) minus the
--   disabled ones: Postgres evaluated that jsonb expression for every finding it filtered, and hashed it
--   into the cache key of every per-repository step.
--
-- A finding's rule is enabled for a repository when the repository has an override enabling it, or when it
-- is enabled globally (not turned off in rule_settings) and the repository has no override disabling it;
-- only rules of the combinations catalog (`p_rules`' keys) count.

alter table public.scans add column rule_ids text[] not null default '{}';

create function public.scans_set_rule_ids() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  update public.scans s
  set rule_ids = (select array_agg(distinct f.rule_id order by f.rule_id) from public.findings f where f.scan_id = s.id)
  where s.id in (select distinct n.scan_id from inserted n);
  return null;
end
$$;

create trigger findings_set_scan_rule_ids
after insert on public.findings
referencing new table as inserted
for each statement execute function public.scans_set_rule_ids();

update public.scans s
set rule_ids = (select array_agg(distinct f.rule_id order by f.rule_id) from public.findings f where f.scan_id = s.id)
where exists (select 1 from public.findings f where f.scan_id = s.id);

create or replace function public.attack_path_inputs(p_user_id uuid, p_rules jsonb, p_kinds jsonb) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
declare
  -- The combination rules, and those of them the user has not turned off globally.
  v_catalog text[] := array(select jsonb_object_keys(p_rules));
  v_on text[] := array(
    select k from unnest(array(select jsonb_object_keys(p_rules))) k
    where not exists (select 1 from public.rule_settings g where g.user_id = p_user_id and g.rule_id = k and not g.enabled)
  );
begin
  return (
    select coalesce(json_agg(json_build_array(r.id, r.full_name, r.html_url, picked.findings)), '[]'::json)
    from (
      select r.id, r.full_name, r.html_url
      from public.repositories r
      where r.user_id = p_user_id
      order by r.full_name, r.id
    ) r
    cross join lateral (
      select s.id, s.rule_ids
      from public.scans s
      where s.user_id = p_user_id and s.repository_id = r.id
      order by s.seq desc
      limit 1
    ) latest
    -- The repository's overrides of combination rules, turned on and turned off.
    cross join lateral (
      select coalesce(array_agg(o.rule_id) filter (where o.enabled), '{}'::text[]) as turned_on,
             coalesce(array_agg(o.rule_id) filter (where not o.enabled), '{}'::text[]) as turned_off
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id and o.rule_id = any(v_catalog)
    ) overrides
    -- The combination rules enabled here that the latest scan has findings of.
    cross join lateral (
      select coalesce(array_agg(k), '{}'::text[]) as present
      from unnest(latest.rule_ids) k
      where k = any(overrides.turned_on) or (k = any(v_on) and not k = any(overrides.turned_off))
    ) usable
    -- Rules of the kinds whose every group has a usable finding here.
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
          nullif(f.recommendation, p_rules ->> f.rule_id), f.job, f.fingerprint
        )
        order by f.ordinal
      ) as findings
      from public.findings f
      where f.user_id = p_user_id and f.scan_id = latest.id and f.rule_id = any(needed.rules)
        and (f.rule_id = any(overrides.turned_on) or (f.rule_id = any(v_on) and not f.rule_id = any(overrides.turned_off)))
    ) picked
    where picked.findings is not null
  );
end
$$;

revoke execute on function public.attack_path_inputs(uuid, jsonb, jsonb), public.scans_set_rule_ids() from public, anon, authenticated;
grant execute on function public.attack_path_inputs(uuid, jsonb, jsonb), public.scans_set_rule_ids() to service_role;

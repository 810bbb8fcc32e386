-- attack_path_inputs hands back only what combinations can be made of, in a compact form. For 1,000
-- repositories x 50 findings the previous version built and sent 28 MB of JSON (~290 ms in the database
-- alone on Postgres 15, and as long again to parse it in the API), most of it findings that cannot form a
-- combination, keys, and text the API already knows. The API passes the combinations catalog (the one source
-- of truth of which rules matter), and the function returns:
--
-- * per repository, only the findings of rules of a kind that can fire there: a kind whose every `requires`
--   group has some usable finding in the repository (a necessary condition of the kind firing; the API then
--   applies the full logic: files, jobs, severities). A kind's result depends only on its own rules'
--   findings, so leaving the others out changes no combination;
-- * no repository left without such a finding;
-- * each finding as an array, not an object: [file, line, column, severity, rule_id, description,
--   recommendation, job, fingerprint], recommendation null when it equals the rule's default; category and
--   title are the rule's own (the engine never varies them) and the API restores them from its rule metadata;
--   each repository as [repo_id, full_name, html_url, findings].
--
-- Parameters: p_rules, every rule that can take part in a combination with its default recommendation
-- ({"script-injection": "Pass the value through ...", ...}); p_kinds, each kind's AND of OR-groups and all
-- its rules ([{"requires": [["a", "b"], ["c"]], "rules": ["a", "b", "c", "amplifier"]}, ...]).
--
-- As before: every repository of the user with a scan, by full_name; its latest scan (highest seq); findings
-- of rules enabled now (the repository's override, else the global preference, else enabled), in recorded
-- order; one round trip. The enabled rules are worked out once per call and once per repository instead of
-- joining two tables for every finding.

drop function public.attack_path_inputs(uuid);

create function public.attack_path_inputs(p_user_id uuid, p_rules jsonb, p_kinds jsonb) returns json
language plpgsql stable
set search_path = '' set timezone = 'UTC' set jit = off
as $$
declare
  -- The combination rules the user has not turned off globally.
  v_rules jsonb := p_rules - coalesce(
    (select array_agg(g.rule_id) from public.rule_settings g where g.user_id = p_user_id and not g.enabled),
    '{}'::text[]
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
      select s.id
      from public.scans s
      where s.user_id = p_user_id and s.repository_id = r.id
      order by s.seq desc
      limit 1
    ) latest
    -- The combination rules enabled for this repository: its overrides applied to the global state.
    cross join lateral (
      select (v_rules - coalesce(array_agg(o.rule_id) filter (where not o.enabled), '{}'::text[]))
        || coalesce(jsonb_object_agg(o.rule_id, p_rules -> o.rule_id) filter (where o.enabled and p_rules ? o.rule_id), '{}'::jsonb)
        as rules
      from public.rule_overrides o
      where o.user_id = p_user_id and o.repository_id = r.id
    ) enabled
    cross join lateral (
      select coalesce(array_agg(distinct f.rule_id), '{}'::text[]) as present
      from public.findings f
      where f.user_id = p_user_id and f.scan_id = latest.id and enabled.rules ? f.rule_id
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
      where f.user_id = p_user_id and f.scan_id = latest.id and f.rule_id = any(needed.rules) and enabled.rules ? f.rule_id
    ) picked
    where picked.findings is not null
  );
end
$$;

revoke execute on function public.attack_path_inputs(uuid, jsonb, jsonb) from public, anon, authenticated;
grant execute on function public.attack_path_inputs(uuid, jsonb, jsonb) to service_role;

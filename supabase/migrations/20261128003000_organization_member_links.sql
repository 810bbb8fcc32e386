-- How many links a GitHub account made to an organization's installation (by installation, else by the
-- organization's login), the same rows organization_member_removed would delete. The `organization` webhook
-- asks it before confirming a role change with GitHub, so that a change in an organization nobody linked
-- through that account costs no GitHub request (lib/services/webhooks.ts).

create function public.organization_member_links(p_installation_id bigint, p_org_login text, p_github_user_id text) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object('links', count(*), 'installation_ids', coalesce(json_agg(distinct i.installation_id), '[]'::json))
  from public.installations i
  where i.github_user_id = p_github_user_id
    and i.account_type = 'Organization'
    and (
      (p_installation_id is not null and i.installation_id = p_installation_id)
      or (p_installation_id is null and lower(i.account_login) = lower(p_org_login))
    )
$$;

revoke execute on function public.organization_member_links(bigint, text, text) from public, anon, authenticated;
grant execute on function public.organization_member_links(bigint, text, text) to service_role;

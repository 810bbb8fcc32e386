-- An organization owner demoted to a plain member loses the links they made as an owner (`access = 'link'`),
-- not what they reach as a member through their own GitHub access (`access = 'member'`, re-checked against
-- GitHub at every sync and scan): organization_member_removed stays for a member who left the organization.

create function public.organization_owner_links_removed(p_installation_id bigint, p_github_user_id text) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  with gone as (
    delete from public.installations
    where github_user_id = p_github_user_id
      and installation_id = p_installation_id
      and account_type = 'Organization'
      and access = 'link'
    returning 1
  )
  select json_build_object('links', (select count(*) from gone))
$$;

revoke execute on function public.organization_owner_links_removed(bigint, text) from public, anon, authenticated;
grant execute on function public.organization_owner_links_removed(bigint, text) to service_role;

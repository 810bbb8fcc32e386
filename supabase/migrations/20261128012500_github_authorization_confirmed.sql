-- A `github_app_authorization` *revoked* delivery ends only the authorizations GitHub confirms are gone (the
-- API asks GitHub with each stored token first, lib/services/webhooks.ts), so a late or replayed delivery
-- signs nobody out whose authorization still holds. The webhook function therefore takes the users to end.

-- The live authorizations acting for a GitHub account: user ids and token ciphertexts, for the API only.
create function public.github_authorizations_of(p_github_user_id text) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(json_agg(json_build_object('user_id', a.user_id, 'access_token', a.access_token) order by a.user_id), '[]'::json)
  from public.github_user_authorizations a
  where a.github_user_id = p_github_user_id and a.revoked_at is null
$$;

drop function public.github_authorization_revoked(text);

-- As before (tokens cleared, revoked_at, member links gone, Supabase sessions ended), for the listed users
-- whose authorization acts for that GitHub account.
create function public.github_authorization_revoked(p_github_user_id text, p_user_ids jsonb) returns json
language plpgsql volatile
security definer
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_users uuid[];
  v_links bigint;
begin
  with revoked as (
    update public.github_user_authorizations
    set access_token = null, refresh_token = null, access_expires_at = null, refresh_expires_at = null,
        revoked_at = now(), updated_at = now()
    where github_user_id = p_github_user_id
      and user_id in (select e::uuid from jsonb_array_elements_text(coalesce(p_user_ids, '[]'::jsonb)) e)
    returning user_id
  )
  select coalesce(array_agg(user_id order by user_id), '{}') into v_users from revoked;
  with gone as (
    delete from public.installations where user_id = any (v_users) and access = 'member' returning 1
  )
  select count(*) into v_links from gone;
  if to_regclass('auth.sessions') is not null and cardinality(v_users) > 0 then
    execute 'delete from auth.sessions where user_id = any ($1)' using v_users;
  end if;
  return json_build_object('user_ids', to_json(v_users), 'links', v_links);
end
$$;

revoke execute on function public.github_authorizations_of(text), public.github_authorization_revoked(text, jsonb) from public, anon, authenticated;
grant execute on function public.github_authorizations_of(text), public.github_authorization_revoked(text, jsonb) to service_role;

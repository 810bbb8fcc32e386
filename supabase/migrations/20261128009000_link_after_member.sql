-- An installation the user reached as a member and then links through the callback (GitHub said they own it)
-- becomes a `link`: the owner's terms (every repository the App is installed on) apply from then on.
create or replace function public.link_installation(
  p_user_id uuid,
  p_installation_id bigint,
  p_account_login text,
  p_account_type text,
  p_github_user_id text default null
) returns json
language sql volatile
set search_path = '' set timezone = 'UTC'
as $$
  insert into public.installations as i (user_id, installation_id, account_login, account_type, github_user_id, access)
  values (p_user_id, p_installation_id, p_account_login, p_account_type, p_github_user_id, 'link')
  on conflict (user_id, installation_id) do update
    set account_login = excluded.account_login, account_type = excluded.account_type, github_user_id = excluded.github_user_id, access = 'link'
  returning json_build_object(
    'installation_id', i.installation_id,
    'account_login', i.account_login,
    'account_type', i.account_type,
    'created_at', i.created_at
  )
$$;

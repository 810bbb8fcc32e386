-- Development data: one signed-in user with a GitHub identity, for `npm run dev` and local Supabase
-- (`supabase db reset` applies this file). Idempotent. Never applied to production.

insert into auth.users (id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values (
  'de7e1000-0000-4000-8000-000000000001',
  'authenticated',
  'authenticated',
  'dev@chainbreaker.local',
  now(),
  '{"provider": "github", "providers": ["github"]}',
  '{"user_name": "chainbreaker-dev"}',
  now(),
  now()
)
on conflict (id) do nothing;

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
values (
  '1000001',
  'de7e1000-0000-4000-8000-000000000001',
  '{"sub": "1000001", "provider_id": "1000001", "user_name": "chainbreaker-dev", "preferred_username": "chainbreaker-dev", "email": "dev@chainbreaker.local"}',
  'github',
  now(),
  now(),
  now()
)
on conflict (provider_id, provider) do nothing;

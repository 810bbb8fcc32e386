-- What a Supabase project already has and this project's migrations rely on: the API roles, the `auth`
-- schema with `auth.users` / `auth.identities`, and the JWT helper functions PostgREST policies call.
--
-- Applied by `npm run db:migrate` (lib/db/migrate.ts) before the migrations, on every database: a plain
-- Postgres server, the embedded PGlite database, or a Supabase project, where every guard below finds the
-- object present and changes nothing. Definitions follow Supabase's own (supabase/postgres
-- migrations/db/init-scripts and supabase/auth migrations), trimmed to what this project touches; column
-- names are kept so that `insert into auth.users (id, email)` and `auth.identities` reads mean the same here
-- as on Supabase.

-- Roles are cluster-wide: another database on the same server (a parallel test run, say) may be creating
-- them at this very moment, which surfaces as unique_violation rather than duplicate_object.
do $$
begin
  begin
    create role anon nologin noinherit;
  exception when duplicate_object or unique_violation then null;
  end;
  begin
    create role authenticated nologin noinherit;
  exception when duplicate_object or unique_violation then null;
  end;
  begin
    create role service_role nologin noinherit bypassrls;
  exception when duplicate_object or unique_violation then null;
  end;
end
$$;

-- Supabase's default privileges: the API roles get everything created in `public`, and row-level security
-- plus explicit revokes (see the migrations) are what hold them back. Reproducing this makes tests fail
-- where a forgotten revoke would leave a hole on Supabase. Default ACLs are per database and per creating
-- role, so they are set only where this database has none for `public` yet.
do $$
begin
  if not exists (
    select 1
    from pg_catalog.pg_default_acl d
    join pg_catalog.pg_namespace n on n.oid = d.defaclnamespace
    where n.nspname = 'public' and d.defaclrole = (select oid from pg_catalog.pg_roles where rolname = current_user)
  ) then
    grant usage on schema public to anon, authenticated, service_role;
    alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
    alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
    alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
  end if;
end
$$;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid null,
  id uuid not null,
  aud varchar(255) null,
  "role" varchar(255) null,
  email varchar(255) null,
  encrypted_password varchar(255) null,
  email_confirmed_at timestamptz null,
  invited_at timestamptz null,
  confirmation_token varchar(255) null,
  confirmation_sent_at timestamptz null,
  recovery_token varchar(255) null,
  recovery_sent_at timestamptz null,
  email_change_token_new varchar(255) null,
  email_change varchar(255) null,
  email_change_sent_at timestamptz null,
  last_sign_in_at timestamptz null,
  raw_app_meta_data jsonb null,
  raw_user_meta_data jsonb null,
  is_super_admin bool null,
  created_at timestamptz null,
  updated_at timestamptz null,
  phone text null default null,
  phone_confirmed_at timestamptz null default null,
  phone_change text null default '',
  phone_change_token varchar(255) null default '',
  phone_change_sent_at timestamptz null default null,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) null default '',
  email_change_confirm_status smallint null default 0
    check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz null,
  reauthentication_token varchar(255) null default '',
  reauthentication_sent_at timestamptz null default null,
  is_sso_user boolean not null default false,
  deleted_at timestamptz null,
  is_anonymous boolean not null default false,
  constraint users_pkey primary key (id),
  constraint users_phone_key unique (phone)
);
create unique index if not exists users_email_partial_key on auth.users (email) where (is_sso_user = false);
create index if not exists users_instance_id_idx on auth.users (instance_id);
comment on table auth.users is 'Auth: Stores user login data within a secure schema.';

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz null,
  created_at timestamptz null,
  updated_at timestamptz null,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid(),
  constraint identities_pkey primary key (id),
  constraint identities_provider_id_provider_unique unique (provider_id, provider),
  constraint identities_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
comment on table auth.identities is 'Auth: Stores identities associated to a user.';

-- Supabase enables RLS on its auth tables and gives the API roles no policy there.
alter table auth.users enable row level security;
alter table auth.identities enable row level security;

-- The JWT helpers, as Supabase defines them today: PostgREST puts the verified claims in
-- `request.jwt.claims` (older versions: one `request.jwt.claim.<name>` setting per claim).
do $$
begin
  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
      set search_path to ''
    as $f$
      select coalesce(
        nullif(current_setting('request.jwt.claim.sub', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
      )::uuid
    $f$;
    comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
  end if;

  if to_regprocedure('auth.role()') is null then
    create function auth.role() returns text
      language sql stable
      set search_path to ''
    as $f$
      select coalesce(
        nullif(current_setting('request.jwt.claim.role', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
      )::text
    $f$;
    comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';
  end if;

  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
      language sql stable
      set search_path to ''
    as $f$
      select coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')
      )::jsonb
    $f$;
  end if;
end
$$;

grant execute on function auth.uid(), auth.role(), auth.jwt() to anon, authenticated, service_role;

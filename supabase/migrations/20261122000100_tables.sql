-- Tables, keys, indexes and row-level security for everything the service stores per user.
--
-- Browsers (roles anon and authenticated, through PostgREST) may only SELECT their own rows; every write goes
-- through the API, which calls the server functions (next migration) as service_role. Supabase's default
-- privileges grant the API roles everything on new tables (bootstrap.sql reproduces that elsewhere), so each
-- table revokes them explicitly instead of relying on the absence of a policy alone.

-- Code-host app installations a user has linked. One installation (an organization's, say) may be linked by
-- several users, each of whom then sees its repositories as their own rows.
create table public.installations (
  user_id uuid not null references auth.users (id) on delete cascade,
  installation_id bigint not null check (installation_id > 0),
  account_login text not null check (account_login <> ''),
  account_type text not null check (account_type <> ''),
  created_at timestamptz not null default now(),
  primary key (user_id, installation_id)
);

-- A user's view of a code-host repository. `id` is the service-side id the API hands out; it stays stable
-- across syncs because rows are upserted on (user_id, github_id), never replaced.
create table public.repositories (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  installation_id bigint not null,
  github_id bigint not null check (github_id > 0),
  full_name text not null check (full_name <> ''),
  private boolean not null,
  html_url text not null,
  default_branch text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, github_id),
  -- Target of the composite foreign keys below, which make a row's user and its repository's user agree.
  unique (id, user_id),
  -- A repository is only ever reached through an installation the same user linked.
  foreign key (user_id, installation_id) references public.installations (user_id, installation_id) on delete cascade
);
create index repositories_installation_idx on public.repositories (user_id, installation_id);

create table public.scans (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  repository_id uuid not null,
  ruleset text not null check (ruleset in ('all', 'owasp')),
  high_count integer not null check (high_count >= 0),
  medium_count integer not null check (medium_count >= 0),
  low_count integer not null check (low_count >= 0),
  info_count integer not null check (info_count >= 0),
  created_at timestamptz not null default now(),
  unique (id, user_id),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);

-- "The latest scan of a repository" (and of every repository of a user): an index-only descent per
-- repository. `id` breaks ties between scans recorded in the same microsecond, so "latest" is deterministic.
create index scans_latest_idx on public.scans (user_id, repository_id, created_at desc, id desc);

-- The findings of a scan, in the order the engine produced them (`ordinal`, 0-based).
create table public.findings (
  scan_id uuid not null,
  ordinal integer not null check (ordinal >= 0),
  user_id uuid not null references auth.users (id) on delete cascade,
  file text not null,
  line integer not null check (line >= 0),
  "column" integer not null check ("column" >= 0),
  severity text not null check (severity in ('HIGH', 'MEDIUM', 'LOW', 'INFO')),
  category text not null,
  rule_id text not null check (rule_id ~ '^[a-z0-9-]{1,64}$'),
  title text not null,
  description text not null,
  recommendation text not null,
  -- The id of the job the finding is bound to; null for workflow-level or repository-settings findings.
  job text null,
  fingerprint text not null,
  primary key (scan_id, ordinal),
  foreign key (scan_id, user_id) references public.scans (id, user_id) on delete cascade
);
-- Deleting a user cascades through user_id.
create index findings_user_idx on public.findings (user_id);

-- Sparse global rule preferences: only rules with an explicit entry have a row; absent means enabled.
create table public.rule_settings (
  user_id uuid not null references auth.users (id) on delete cascade,
  rule_id text not null check (rule_id ~ '^[a-z0-9-]{1,64}$'),
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, rule_id)
);

-- Sparse per-repository overrides; an override wins over the global preference.
create table public.rule_overrides (
  user_id uuid not null references auth.users (id) on delete cascade,
  repository_id uuid not null,
  rule_id text not null check (rule_id ~ '^[a-z0-9-]{1,64}$'),
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, repository_id, rule_id),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);

-- Row-level security: the owner reads their rows, nobody else reads anything, and no browser role writes.
-- `(select auth.uid())` is evaluated once per statement rather than once per row.

alter table public.installations enable row level security;
create policy installations_select_own on public.installations for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.installations from public, anon, authenticated;
grant select on table public.installations to authenticated;
grant select, insert, update, delete on table public.installations to service_role;

alter table public.repositories enable row level security;
create policy repositories_select_own on public.repositories for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.repositories from public, anon, authenticated;
grant select on table public.repositories to authenticated;
grant select, insert, update, delete on table public.repositories to service_role;

alter table public.scans enable row level security;
create policy scans_select_own on public.scans for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.scans from public, anon, authenticated;
grant select on table public.scans to authenticated;
grant select, insert, update, delete on table public.scans to service_role;

alter table public.findings enable row level security;
create policy findings_select_own on public.findings for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.findings from public, anon, authenticated;
grant select on table public.findings to authenticated;
grant select, insert, update, delete on table public.findings to service_role;

alter table public.rule_settings enable row level security;
create policy rule_settings_select_own on public.rule_settings for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.rule_settings from public, anon, authenticated;
grant select on table public.rule_settings to authenticated;
grant select, insert, update, delete on table public.rule_settings to service_role;

alter table public.rule_overrides enable row level security;
create policy rule_overrides_select_own on public.rule_overrides for select to authenticated using ((select auth.uid()) = user_id);
revoke all on table public.rule_overrides from public, anon, authenticated;
grant select on table public.rule_overrides to authenticated;
grant select, insert, update, delete on table public.rule_overrides to service_role;

-- Continuous monitoring (issue 28): scans are started by a person (manual), by a push to the default branch
-- (push), by a pull request's check (pull_request) or by the daily re-check of the online audits (schedule).
-- Each scan says which (`scans.trigger`; every scan before this one was manual) and the reads return it with
-- the commit. Row-level security on scans is unchanged: browsers read the new column with their rows.
--
-- Also here: who the monitor's jobs serve (every user linked to the installation who has the repository),
-- the latest check run of a repository's pull requests as each of those users sees it (`check_runs`,
-- readable by its user under row-level security), and the installation's check policy (whether a new HIGH
-- finding or a new HIGH/CRITICAL attack path fails the check; on by default).

alter table public.scans add column trigger text not null default 'manual'
  check (trigger in ('manual', 'push', 'pull_request', 'schedule'));

-- record_scan gains a tenth argument, the trigger; the nine-argument form stays (manual scans). A scan on
-- push or pull request names its commit, and a second one of the same commit and trigger is not stored (the
-- first is returned): a queued job that runs again stores nothing new.
create function public.record_scan(
  p_user_id uuid,
  p_repository_id uuid,
  p_ruleset text,
  p_counts jsonb,
  p_findings jsonb,
  p_content_hash text,
  p_keep integer,
  p_quota integer,
  p_commit_sha text,
  p_trigger text
) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_findings constant jsonb := coalesce(p_findings, '[]'::jsonb);
  v_counted jsonb;
  v_new integer;
  v_total bigint;
  v_latest public.scans;
  v_scan public.scans;
begin
  if p_keep is null or p_keep < 1 or p_quota is null or p_quota < 0 then
    raise exception using errcode = '22023', message = 'keep must be positive and quota not negative';
  end if;
  if p_trigger is null or p_trigger not in ('manual', 'push', 'pull_request', 'schedule') then
    raise exception using errcode = '22023', message = 'trigger must be manual, push, pull_request or schedule';
  end if;
  if p_trigger in ('push', 'pull_request') and p_commit_sha is null then
    raise exception using errcode = '22023', message = 'a scan on push or pull request names its commit';
  end if;
  -- The repository row is locked: scans of one repository are recorded one after another, so the check
  -- against the latest scan and the pruning see each other.
  perform 1 from public.repositories r where r.id = p_repository_id and r.user_id = p_user_id for update;
  if not found then
    raise exception using errcode = 'P0002', message = 'repository not found';
  end if;

  select jsonb_build_object(
    'HIGH', count(*) filter (where e.item ->> 'severity' = 'HIGH'),
    'MEDIUM', count(*) filter (where e.item ->> 'severity' = 'MEDIUM'),
    'LOW', count(*) filter (where e.item ->> 'severity' = 'LOW'),
    'INFO', count(*) filter (where e.item ->> 'severity' = 'INFO')
  )
  into v_counted
  from jsonb_array_elements(v_findings) as e(item);
  if p_counts is distinct from v_counted then
    raise exception using errcode = '22023', message = 'counts do not match findings';
  end if;
  v_new := jsonb_array_length(v_findings);

  -- A job run again (a retry, a second delivery) stores nothing new: one scan per commit and trigger.
  if p_trigger in ('push', 'pull_request') then
    select s.* into v_scan from public.scans s
    where s.user_id = p_user_id and s.repository_id = p_repository_id and s.commit_sha = p_commit_sha and s.trigger = p_trigger
    order by s.seq desc limit 1;
    if found then
      return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at, 'stored', false);
    end if;
  end if;

  if p_content_hash is not null then
    select s.* into v_latest from public.scans s
    where s.user_id = p_user_id and s.repository_id = p_repository_id
    order by s.seq desc limit 1;
    if found and v_latest.content_hash = p_content_hash and v_latest.ruleset = p_ruleset then
      -- The identical latest scan stands for this one: its time and commit come up to date, its trigger stays.
      update public.scans s set created_at = now(), commit_sha = coalesce(p_commit_sha, s.commit_sha) where s.id = v_latest.id returning s.* into v_scan;
      return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at, 'stored', false);
    end if;
  end if;

  if p_quota > 0 then
    select coalesce(sum(s.high_count + s.medium_count + s.low_count + s.info_count), 0) into v_total
    from public.scans s where s.user_id = p_user_id;
    if v_total + v_new > p_quota then
      -- Oldest first, never a repository's latest scan, until the new one fits.
      delete from public.scans d
      using (
        select h.id, h.n, sum(h.n) over (order by h.seq) as freed
        from (
          select s.id, s.seq, s.high_count + s.medium_count + s.low_count + s.info_count as n
          from public.scans s
          where s.user_id = p_user_id
            and exists (select 1 from public.scans l where l.user_id = p_user_id and l.repository_id = s.repository_id and l.seq > s.seq)
        ) h
      ) o
      where d.id = o.id and o.freed - o.n < v_total + v_new - p_quota;
      select coalesce(sum(s.high_count + s.medium_count + s.low_count + s.info_count), 0) into v_total
      from public.scans s where s.user_id = p_user_id;
      if v_total + v_new > p_quota then
        return json_build_object('scan_id', null, 'created_at', null, 'stored', false, 'quota_exceeded', true, 'stored_findings', v_total, 'quota', p_quota);
      end if;
    end if;
  end if;

  insert into public.scans as s
    (user_id, repository_id, ruleset, high_count, medium_count, low_count, info_count, content_hash, commit_sha, trigger)
  values (
    p_user_id,
    p_repository_id,
    p_ruleset,
    (v_counted ->> 'HIGH')::integer,
    (v_counted ->> 'MEDIUM')::integer,
    (v_counted ->> 'LOW')::integer,
    (v_counted ->> 'INFO')::integer,
    p_content_hash,
    p_commit_sha,
    p_trigger
  )
  returning s.* into v_scan;

  insert into public.findings (
    scan_id, ordinal, user_id, file, line, "column", severity, category, rule_id, title, description,
    recommendation, job, fingerprint, fix, facts
  )
  select
    v_scan.id, (e.position - 1)::integer, p_user_id, f.file, f.line, f."column", f.severity, f.category,
    f.rule_id, f.title, f.description, f.recommendation, f.job, f.fingerprint, nullif(f.fix, 'null'::jsonb), f.facts
  from jsonb_array_elements(v_findings) with ordinality as e(item, position)
  cross join lateral jsonb_to_record(e.item) as f(
    file text,
    line integer,
    "column" integer,
    severity text,
    category text,
    rule_id text,
    title text,
    description text,
    recommendation text,
    job text,
    fingerprint text,
    fix jsonb,
    facts text[]
  );

  -- The repository keeps its last p_keep scans.
  delete from public.scans d
  where d.user_id = p_user_id and d.repository_id = p_repository_id
    and d.id not in (
      select k.id from public.scans k
      where k.user_id = p_user_id and k.repository_id = p_repository_id
      order by k.seq desc limit p_keep
    );

  return json_build_object('scan_id', v_scan.id, 'created_at', v_scan.created_at, 'stored', true);
end
$$;

-- As in 20261128010000_scan_commit.sql, plus the scan's `trigger`.
create or replace function public.get_scan(p_user_id uuid, p_scan_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select (jsonb_build_object(
    'scan_id', s.id,
    'repo_id', s.repository_id,
    'ruleset', s.ruleset,
    'trigger', s.trigger,
    'counts', json_build_object('HIGH', s.high_count, 'MEDIUM', s.medium_count, 'LOW', s.low_count, 'INFO', s.info_count),
    'created_at', s.created_at,
    'findings', coalesce(
      (
        select json_agg(
          case when f.fix is null then
            json_build_object(
              'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation,
              'fingerprint', f.fingerprint
            )
          else
            json_build_object(
              'file', f.file, 'line', f.line, 'column', f."column", 'severity', f.severity, 'category', f.category,
              'rule_id', f.rule_id, 'title', f.title, 'description', f.description, 'recommendation', f.recommendation,
              'fingerprint', f.fingerprint, 'fix', f.fix
            )
          end
          order by f.ordinal
        )
        from public.findings f
        where f.scan_id = s.id and f.user_id = p_user_id
      ),
      '[]'::json
    )
  ) || case when s.commit_sha is null then '{}'::jsonb else jsonb_build_object('commit_sha', s.commit_sha) end)::json
  from public.scans s
  where s.id = p_scan_id and s.user_id = p_user_id
$$;


-- The repository's scans as before, each with its trigger, and its commit when it has one.
create or replace function public.list_repository_scans(p_user_id uuid, p_repository_id uuid, p_limit integer, p_before_seq bigint)
returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(
    (
      select json_agg(page.row order by page.seq desc)
      from (
        select s.seq,
          (jsonb_build_object(
            'scan_id', s.id,
            'repo_id', s.repository_id,
            'ruleset', s.ruleset,
            'trigger', s.trigger,
            'counts', json_build_object('HIGH', s.high_count, 'MEDIUM', s.medium_count, 'LOW', s.low_count, 'INFO', s.info_count),
            'created_at', s.created_at,
            'seq', s.seq
          ) || case when s.commit_sha is null then '{}'::jsonb else jsonb_build_object('commit_sha', s.commit_sha) end)::json as row
        from public.scans s
        where s.user_id = p_user_id and s.repository_id = r.id and (p_before_seq is null or s.seq < p_before_seq)
        order by s.seq desc
        limit greatest(1, least(coalesce(p_limit, 20), 100))
      ) page
    ),
    '[]'::json
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- Whom a job about one repository of an installation serves: every user linked to the installation who has
-- the repository (by GitHub's id), with their repository row and how they reach the installation. The
-- repositories of a suspended installation serve no one.
create function public.monitor_repository_users(p_installation_id bigint, p_github_id bigint) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select coalesce(json_agg(json_build_object(
    'user_id', r.user_id,
    'repository_id', r.id,
    'full_name', r.full_name,
    'private', r.private,
    'default_branch', r.default_branch,
    'html_url', r.html_url,
    'access', i.access
  ) order by r.user_id), '[]'::json)
  from public.repositories r
  join public.installations i on i.user_id = r.user_id and i.installation_id = r.installation_id
  where r.installation_id = p_installation_id and r.github_id = p_github_id
    and not exists (select 1 from public.suspended_installations s where s.installation_id = p_installation_id)
$$;

-- The latest check run published on a pull request of the repository, per user who has it.
create table public.check_runs (
  user_id uuid not null references auth.users (id) on delete cascade,
  repository_id uuid not null,
  pull_number integer not null check (pull_number > 0),
  head_sha text not null check (head_sha ~ '^[0-9a-f]{40}$'),
  check_run_id bigint not null check (check_run_id > 0),
  conclusion text not null check (conclusion in ('success', 'failure', 'neutral')),
  html_url text not null check (html_url ~ '^https://' and length(html_url) <= 2000),
  new_findings integer not null check (new_findings >= 0),
  new_attack_paths integer not null check (new_attack_paths >= 0),
  updated_at timestamptz not null default now(),
  primary key (user_id, repository_id),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);
alter table public.check_runs enable row level security;
revoke all on public.check_runs from public, anon, authenticated;
grant select on public.check_runs to authenticated;
grant select, insert, update, delete on public.check_runs to service_role;
create policy check_runs_select_own on public.check_runs for select to authenticated using ((select auth.uid()) = user_id);

-- Stores a published check run for every user who has the repository; `{users}` says for how many.
create function public.record_check_run(p_installation_id bigint, p_github_id bigint, p_result jsonb) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
declare
  v_users integer;
begin
  insert into public.check_runs as c
    (user_id, repository_id, pull_number, head_sha, check_run_id, conclusion, html_url, new_findings, new_attack_paths, updated_at)
  select r.user_id, r.id, (p_result ->> 'pull_number')::integer, p_result ->> 'head_sha', (p_result ->> 'check_run_id')::bigint,
    p_result ->> 'conclusion', p_result ->> 'html_url', (p_result ->> 'new_findings')::integer, (p_result ->> 'new_attack_paths')::integer, now()
  from public.repositories r
  where r.installation_id = p_installation_id and r.github_id = p_github_id
  on conflict (user_id, repository_id) do update
    set pull_number = excluded.pull_number, head_sha = excluded.head_sha, check_run_id = excluded.check_run_id,
        conclusion = excluded.conclusion, html_url = excluded.html_url, new_findings = excluded.new_findings,
        new_attack_paths = excluded.new_attack_paths, updated_at = excluded.updated_at;
  get diagnostics v_users = row_count;
  return json_build_object('users', v_users);
end
$$;

-- The repository's latest check run for the user: `{check_run: {...} | null}`; null when not owned.
create function public.repository_check_run(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object('check_run', (
    select json_build_object(
      'pull_number', c.pull_number, 'head_sha', c.head_sha, 'conclusion', c.conclusion, 'html_url', c.html_url,
      'new_findings', c.new_findings, 'new_attack_paths', c.new_attack_paths, 'updated_at', c.updated_at
    )
    from public.check_runs c where c.user_id = p_user_id and c.repository_id = r.id
  ))
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

-- The installation's pull request check policy. One row per installation (none: the default, on).
create table public.installation_check_policies (
  installation_id bigint primary key check (installation_id > 0),
  fail_on_high boolean not null default true,
  updated_at timestamptz not null default now()
);
alter table public.installation_check_policies enable row level security;
revoke all on public.installation_check_policies from public, anon, authenticated;
grant select, insert, update, delete on public.installation_check_policies to service_role;

create function public.installation_check_policy(p_installation_id bigint) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object('fail_on_high', coalesce(
    (select p.fail_on_high from public.installation_check_policies p where p.installation_id = p_installation_id), true))
$$;

-- Sets the policy; only a user who linked the installation (its account, or an owner of its organization) may.
create function public.set_installation_check_policy(p_user_id uuid, p_installation_id bigint, p_fail_on_high boolean) returns json
language plpgsql volatile
set search_path = '' set timezone = 'UTC'
as $$
begin
  perform 1 from public.installations i where i.user_id = p_user_id and i.installation_id = p_installation_id and i.access = 'link';
  if not found then
    raise exception using errcode = 'P0002', message = 'installation not found';
  end if;
  insert into public.installation_check_policies as p (installation_id, fail_on_high, updated_at)
  values (p_installation_id, coalesce(p_fail_on_high, true), now())
  on conflict (installation_id) do update set fail_on_high = excluded.fail_on_high, updated_at = excluded.updated_at;
  return json_build_object('fail_on_high', coalesce(p_fail_on_high, true));
end
$$;

revoke execute on function public.record_scan(uuid, uuid, text, jsonb, jsonb, text, integer, integer, text, text) from public, anon, authenticated;
grant execute on function public.record_scan(uuid, uuid, text, jsonb, jsonb, text, integer, integer, text, text) to service_role;
revoke execute on function public.get_scan(uuid, uuid) from public, anon, authenticated;
grant execute on function public.get_scan(uuid, uuid) to service_role;
revoke execute on function public.list_repository_scans(uuid, uuid, integer, bigint) from public, anon, authenticated;
grant execute on function public.list_repository_scans(uuid, uuid, integer, bigint) to service_role;
revoke execute on function public.monitor_repository_users(bigint, bigint) from public, anon, authenticated;
grant execute on function public.monitor_repository_users(bigint, bigint) to service_role;
revoke execute on function public.record_check_run(bigint, bigint, jsonb) from public, anon, authenticated;
grant execute on function public.record_check_run(bigint, bigint, jsonb) to service_role;
revoke execute on function public.repository_check_run(uuid, uuid) from public, anon, authenticated;
grant execute on function public.repository_check_run(uuid, uuid) to service_role;
revoke execute on function public.installation_check_policy(bigint) from public, anon, authenticated;
grant execute on function public.installation_check_policy(bigint) to service_role;
revoke execute on function public.set_installation_check_policy(uuid, bigint, boolean) from public, anon, authenticated;
grant execute on function public.set_installation_check_policy(uuid, bigint, boolean) to service_role;

-- Links to the code (issue 27 item 4): each scan stores the commit its files were read at, as the code host
-- reported it (`RepositorySnapshot.commitSha`; null when it does not know one, as the local code host), so a
-- finding links to `<html_url>/blob/<sha>/<path>#L<line>` and keeps pointing at the code that was scanned.
-- record_scan gains a ninth argument (the eight-argument one stays for callers without a commit; an identical
-- scan brings its stored commit up to date), and get_scan returns `commit_sha` when there is one. Browsers read
-- the column under the scans table's row-level security.

alter table public.scans add column commit_sha text check (commit_sha is null or commit_sha ~ '^[0-9a-f]{40}$');

create function public.record_scan(
  p_user_id uuid,
  p_repository_id uuid,
  p_ruleset text,
  p_counts jsonb,
  p_findings jsonb,
  p_content_hash text,
  p_keep integer,
  p_quota integer,
  p_commit_sha text
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

  if p_content_hash is not null then
    select s.* into v_latest from public.scans s
    where s.user_id = p_user_id and s.repository_id = p_repository_id
    order by s.seq desc limit 1;
    if found and v_latest.content_hash = p_content_hash and v_latest.ruleset = p_ruleset then
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
    (user_id, repository_id, ruleset, high_count, medium_count, low_count, info_count, content_hash, commit_sha)
  values (
    p_user_id,
    p_repository_id,
    p_ruleset,
    (v_counted ->> 'HIGH')::integer,
    (v_counted ->> 'MEDIUM')::integer,
    (v_counted ->> 'LOW')::integer,
    (v_counted ->> 'INFO')::integer,
    p_content_hash,
    p_commit_sha
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

-- As in 20261128001000_scan_fingerprints.sql, plus `commit_sha` when the scan has one.
create or replace function public.get_scan(p_user_id uuid, p_scan_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select (jsonb_build_object(
    'scan_id', s.id,
    'repo_id', s.repository_id,
    'ruleset', s.ruleset,
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

revoke execute on function public.record_scan(uuid, uuid, text, jsonb, jsonb, text, integer, integer, text) from public, anon, authenticated;
grant execute on function public.record_scan(uuid, uuid, text, jsonb, jsonb, text, integer, integer, text) to service_role;
revoke execute on function public.get_scan(uuid, uuid) from public, anon, authenticated;
grant execute on function public.get_scan(uuid, uuid) to service_role;

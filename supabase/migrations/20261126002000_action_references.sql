-- The `uses:` references (`owner/repo@ref#version`) a repository's workflows had at its last scan. The next
-- scan reads them with its context and asks GitHub about them (lib/online, `prefetchFacts`) while the
-- snapshot is still being fetched, so the online audits cost no round trip of their own unless the
-- references changed. Per user and repository like the scans; internal bookkeeping that no browser role
-- reads or writes.

create table public.repository_action_references (
  repository_id uuid primary key,
  user_id uuid not null,
  refs jsonb not null check (jsonb_typeof(refs) = 'array' and jsonb_array_length(refs) <= 500 and octet_length(refs::text) <= 200000),
  updated_at timestamptz not null default now(),
  foreign key (repository_id, user_id) references public.repositories (id, user_id) on delete cascade
);

alter table public.repository_action_references enable row level security;
revoke all on table public.repository_action_references from public, anon, authenticated;
grant select, insert, update, delete on table public.repository_action_references to service_role;

-- Replaces the references of a repository the user owns: p_refs is a JSON array of at most 500 strings of
-- 1..400 characters (else 22023). Returns {stored: boolean} (false when the user does not own it).
create function public.set_action_references(p_user_id uuid, p_repository_id uuid, p_refs jsonb) returns json
language plpgsql volatile
set search_path = ''
as $$
declare
  v_stored integer;
begin
  if p_refs is null or jsonb_typeof(p_refs) <> 'array' or jsonb_array_length(p_refs) > 500
     or exists (select 1 from jsonb_array_elements(p_refs) e where jsonb_typeof(e) <> 'string' or length(e #>> '{}') not between 1 and 400) then
    raise exception using errcode = '22023', message = 'refs must be an array of at most 500 strings of 1 to 400 characters';
  end if;
  insert into public.repository_action_references as a (repository_id, user_id, refs)
  select r.id, r.user_id, p_refs
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
  on conflict (repository_id) do update set refs = excluded.refs, updated_at = now();
  get diagnostics v_stored = row_count;
  return json_build_object('stored', v_stored > 0);
end
$$;

-- As in 20261126001000_rule_options.sql, plus `action_references`: the references stored by
-- set_action_references ([] before the first scan).
create or replace function public.scan_context(p_user_id uuid, p_repository_id uuid) returns json
language sql stable
set search_path = '' set timezone = 'UTC'
as $$
  select json_build_object(
    'repository', json_build_object(
      'id', r.id,
      'github_id', r.github_id,
      'installation_id', r.installation_id,
      'full_name', r.full_name,
      'private', r.private,
      'html_url', r.html_url,
      'default_branch', r.default_branch,
      'created_at', r.created_at,
      'updated_at', r.updated_at
    ),
    'disabled_rules', coalesce(
      (
        select json_agg(coalesce(o.rule_id, g.rule_id) order by coalesce(o.rule_id, g.rule_id))
        from (select * from public.rule_settings where user_id = p_user_id) g
        full join (
          select * from public.rule_overrides where user_id = p_user_id and repository_id = r.id
        ) o on o.rule_id = g.rule_id
        where not coalesce(o.enabled, g.enabled)
      ),
      '[]'::json
    ),
    'rule_options', coalesce(
      (
        select json_object_agg(s.rule_id, s.options order by s.rule_id)
        from public.rule_settings s
        where s.user_id = p_user_id and s.options is not null
      ),
      '{}'::json
    ),
    'action_references', coalesce(
      (select a.refs from public.repository_action_references a where a.repository_id = r.id and a.user_id = p_user_id),
      '[]'::jsonb
    )
  )
  from public.repositories r
  where r.id = p_repository_id and r.user_id = p_user_id
$$;

revoke execute on function
  public.set_action_references(uuid, uuid, jsonb),
  public.scan_context(uuid, uuid)
from public, anon, authenticated;
grant execute on function
  public.set_action_references(uuid, uuid, jsonb),
  public.scan_context(uuid, uuid)
to service_role;

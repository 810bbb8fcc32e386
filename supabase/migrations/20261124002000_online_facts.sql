-- The online audits' shared cache (lib/online): facts about public action repositories that GitHub answered
-- (a tag's commit, whether a commit is on a branch or tag, a repository's default branch), keyed by
-- `kind:owner/repo@ref`, each with its own expiry. Shared across users and installations on purpose: the
-- facts are the same for everyone, so 1,000 repositories pinning actions/checkout cost one lookup. No user
-- data is stored here, so the functions take no p_user_id.

create table public.online_facts (
  key text primary key check (length(key) between 1 and 400),
  value jsonb not null check (octet_length(value::text) <= 200000),
  expires_at timestamptz not null
);

create index online_facts_expires_at on public.online_facts (expires_at);

-- Internal bookkeeping: no browser role reads or writes it.
alter table public.online_facts enable row level security;
revoke all on table public.online_facts from public, anon, authenticated;
grant select, insert, update, delete on table public.online_facts to service_role;

-- The live facts among p_keys (a JSON array of at most 2,000 keys; more are ignored): {key: value}.
create function public.online_facts_get(p_keys jsonb) returns json
language sql stable
set search_path = ''
as $$
  select coalesce(json_object_agg(f.key, f.value), '{}'::json)
  from public.online_facts f
  where f.key in (
      select k from jsonb_array_elements_text(case when jsonb_typeof(p_keys) = 'array' then p_keys else '[]'::jsonb end) as x(k) limit 2000
    )
    and f.expires_at > now()
$$;

-- Stores facts: p_entries is [{key, value, ttl_seconds}] (at most 2,000; ttl 1 s .. 30 days). Returns
-- {stored}. Also removes up to 1,000 expired facts, so the table holds only what is live.
create function public.online_facts_put(p_entries jsonb) returns json
language plpgsql volatile
set search_path = ''
as $$
declare
  v_stored integer;
begin
  if p_entries is null or jsonb_typeof(p_entries) <> 'array' or jsonb_array_length(p_entries) > 2000 then
    raise exception using errcode = '22023', message = 'entries must be an array of at most 2000 facts';
  end if;
  insert into public.online_facts as f (key, value, expires_at)
  select distinct on (e ->> 'key') e ->> 'key', e -> 'value',
         now() + make_interval(secs => least(greatest((e ->> 'ttl_seconds')::integer, 1), 30 * 24 * 3600))
  from jsonb_array_elements(p_entries) with ordinality as x(e, n)
  where e ? 'key' and e ? 'value' and e ? 'ttl_seconds'
  order by e ->> 'key', n desc
  on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at;
  get diagnostics v_stored = row_count;

  delete from public.online_facts
  where key in (select key from public.online_facts where expires_at <= now() limit 1000);

  return json_build_object('stored', v_stored);
end
$$;

revoke execute on function public.online_facts_get(jsonb) from public, anon, authenticated;
grant execute on function public.online_facts_get(jsonb) to service_role;
revoke execute on function public.online_facts_put(jsonb) from public, anon, authenticated;
grant execute on function public.online_facts_put(jsonb) to service_role;

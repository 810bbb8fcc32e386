-- The queue's job table (20261129223003_monitor_queue.sql) has an identity column, whose sequence Supabase's
-- default privileges hand to the browser roles: they could read or advance it (nothing else; the table
-- itself is closed to them). As for dismissal_events_id_seq, only the service role keeps it.
revoke all on sequence public.monitor_jobs_id_seq from public, anon, authenticated;
grant usage, select on sequence public.monitor_jobs_id_seq to service_role;

-- The online audits' shared cache (online_facts, 20261124002000_online_facts.sql) held facts read over REST
-- without knowing the repository's visibility, so a private action repository's facts (its existence, branch
-- names, tags' commits, whether a guessed commit is one of its own) could serve another tenant. From now on
-- only the facts of repositories GitHub said are public are written (lib/online/audit.ts, `Facts.flush`);
-- what is stored from before cannot be told apart, so it is dropped. The cache refills as scans run.

delete from public.online_facts;

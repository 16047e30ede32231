-- The learners of bench/assessment.mjs and bench/practice.mjs, made by PostgreSQL from
-- generate_series (run by bench/lib/admin-fill.mjs's runFillScript, before the bench's own fill):
-- current_setting('lingua_bench.learners') accounts, each with a session the bench signs in with
-- (bench/lib/learners.mjs signs its token with the server's secret, as better-auth does).
-- Learner i's id is md5('lingua-bench-learner-' || i).

-- step: learners
insert into "user" (id, name, email, email_verified, created_at, updated_at, two_factor_enabled, role, banned,
                    last_sign_in_at, last_active_at)
select
  md5('lingua-bench-learner-' || i),
  'Learner ' || i,
  'learner-' || i || '@bench.example',
  true,
  now() - interval '400 days' + interval '1 second' * i,
  now() - interval '400 days' + interval '1 second' * i,
  false, 'user', false, now() - interval '1 day', now()
from generate_series(1, current_setting('lingua_bench.learners')::int) as i
order by 1;

-- step: learner sessions
insert into session (id, token, expires_at, created_at, updated_at, ip_address, user_agent, user_id)
select
  'bench-session-' || i,
  md5('lingua-bench-token-' || i) || md5('lingua-bench-token-2-' || i),
  now() + interval '7 days',
  now() - interval '1 day',
  now() - interval '1 day',
  '127.0.0.1',
  'lingua-bench',
  md5('lingua-bench-learner-' || i)
from generate_series(1, current_setting('lingua_bench.learners')::int) as i;

-- bench/assessment.mjs's stored self-assessments, made by PostgreSQL (run by bench/lib/admin-fill.mjs's
-- runFillScript after bench/learners-fill.sql): current_setting('lingua_bench.finished') finished
-- assessments (learners 1..finished, one each) and current_setting('lingua_bench.in_progress') in
-- progress (learners 1..in_progress, one each: at most one per learner), with their answers.
--
-- Each assessment follows a plan (bench_plan, kept in the database so that the bench reads what
-- is left of it): a "true" level per skill, drawn from a hash of the assessment and skill, between
-- none and all of the skill's levels; the learner answers "I can" to every statement of the levels
-- below it and "not yet" to every statement of that level and the next (two missed levels end the
-- skill; so does the last one). Skills in their order, levels in level order, statements in their
-- order: the order the rule (src/shared/placement.ts) asks them in, so every answer of the plan is
-- one the server accepts when the ones before it were given. A finished assessment has answered its
-- whole plan (and has its result); one in progress a prefix of it (at least one answer left).

-- step: plan helpers
-- The statements with each one's skill order and level index within its skill (levels without a
-- statement of the skill are skipped, as the rule skips them).
create table bench_cell as
select
  s.id as statement_id,
  s.skill,
  array_position(array['listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing'], s.skill) as skill_index,
  (dense_rank() over (partition by s.skill order by l.position, l.id) - 1)::int as level_index,
  l.id as level_id,
  s.position
from can_do_statement as s
join language_level as l on l.id = s.level_id;

create table bench_skill_levels as
select skill, max(level_index) + 1 as levels from bench_cell group by skill;

-- Per assessment and skill: the number of levels reached (0 .. levels), from a hash.
create function bench_reached(assessment int)
returns table (skill text, levels int, reached int)
language sql stable as $$
  select skill, levels, abs(hashtext(assessment || ':' || skill)) % (levels + 1) from bench_skill_levels
$$;

-- The plan of one assessment: every answer in the order asked, and how many there are.
create function bench_plan(assessment int)
returns table (statement_id int, can boolean, step int, steps int)
language sql stable as $$
  select
    c.statement_id,
    c.level_index < r.reached,
    (row_number() over (order by c.skill_index, c.level_index, c.position, c.statement_id))::int,
    (count(*) over ())::int
  from bench_reached(assessment) as r
  join bench_cell as c on c.skill = r.skill and c.level_index <= least(r.reached + 1, r.levels - 1)
$$;

-- step: assessments
select setseed(0.32);
insert into assessment (user_id, started_at, finished_at)
select md5('lingua-bench-learner-' || i), started_at, started_at + interval '1 minute' * (10 + 30 * random())
from (
  select i, now() - interval '400 days' * random() - interval '1 day' as started_at
  from generate_series(1, current_setting('lingua_bench.finished')::int) as i
) as finished
order by started_at;

insert into assessment (user_id, started_at)
select md5('lingua-bench-learner-' || i), now() - interval '2 days' * random()
from generate_series(1, current_setting('lingua_bench.in_progress')::int) as i;

-- step: answers
-- A finished assessment: its whole plan; one in progress: the first k answers, k from a hash,
-- 0 .. steps - 1. One answer every 20 seconds from the start.
insert into assessment_answer (assessment_id, statement_id, can, answered_at)
select a.id, p.statement_id, p.can, a.started_at + interval '20 seconds' * p.step
from assessment as a
cross join lateral bench_plan(a.id) as p
where a.finished_at is not null or p.step <= abs(hashtext('answered:' || a.id)) % p.steps
order by a.id, p.statement_id;

-- step: results
-- The finished ones' result as the server keeps it (decision 0018): each skill's level code (null:
-- below the first level), the overall one by the rule ("the lowest of the middle three"), the
-- first level's code.
with reached as (
  select a.id, r.skill, c.level_id
  from assessment as a
  cross join lateral bench_reached(a.id) as r
  left join lateral (
    select level_id from bench_cell where bench_cell.skill = r.skill and level_index = r.reached - 1 limit 1
  ) as c on true
  where a.finished_at is not null
),
ranks as (
  select id, (row_number() over (order by position, id) - 1)::int as rank, code from language_level
),
per_assessment as (
  select
    reached.id,
    jsonb_object_agg(reached.skill, ranks.code) as skill_levels,
    array_agg(coalesce(ranks.rank, -1) order by coalesce(ranks.rank, -1)) as sorted
  from reached
  left join ranks on ranks.id = reached.level_id
  group by reached.id
)
update assessment
set
  skill_levels = p.skill_levels,
  overall_level_code = (
    select code from ranks
    where rank = case when p.sorted[1] = p.sorted[3] or p.sorted[2] = p.sorted[4] or p.sorted[3] = p.sorted[5]
                      then p.sorted[3] else p.sorted[2] end
  ),
  first_level_code = (select code from ranks where rank = 0)
from per_assessment as p
where assessment.id = p.id;

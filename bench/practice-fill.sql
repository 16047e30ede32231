-- bench/practice.mjs's practice data, made by PostgreSQL (run by bench/lib/admin-fill.mjs's
-- runFillScript after bench/learners-fill.sql): for current_setting('lingua_bench.learners')
-- learners, current_setting('lingua_bench.cards') cards each (one per word, five grades behind
-- each) and five review logs per card, as src/server/api/practice/store.ts writes them.
--
-- Words: 'benchword1' … in English; the first `cards` spread over every level but the last, then
-- current_setting('lingua_bench.new_words') more on the last level, which is every learner's
-- current level: the words they have not started (the queue's new words). Each learner has a card
-- for each of the first `cards` words: in review (state 2) after five grades, a share
-- current_setting('lingua_bench.due_share') of them due now (up to three days late), the others
-- due within 60 days. Practice settings: the defaults (time zone UTC, the FSRS parameters the bench
-- passes as current_setting('lingua_bench.fsrs')).
--
-- Cards and logs are drawn for the first current_setting('lingua_bench.base_learners') learners
-- (all of them up to 1,000); each learner after those gets a copy of base learner
-- ((i - 1) % base) + 1's cards and logs (the same words, schedules and client ids, which are
-- unique per learner): ten times the rows in a fraction of the time, since building each log's
-- JSON is the fill's costly part.

-- step: words
insert into word (level_id, language, text, translation_en, translation_ru, example, part_of_speech, created_at, updated_at)
select
  lv.id, 'en', 'benchword' || i, 'a gloss of benchword ' || i, 'перевод ' || i, 'An example with benchword' || i || '.', 'noun',
  now() - interval '500 days', now() - interval '500 days'
from generate_series(1, current_setting('lingua_bench.cards')::int + current_setting('lingua_bench.new_words')::int) as i
join (select id, row_number() over (order by position, id) as n, count(*) over () as total from language_level) as lv
  on lv.n = case when i > current_setting('lingua_bench.cards')::int then lv.total
                 else 1 + ((i - 1) * (lv.total - 1)) / current_setting('lingua_bench.cards')::int end
order by i;

create table bench_word as
select substr(text, 10)::int as i, id from word where language = 'en' and text ~ '^benchword[0-9]+$';

-- step: profiles and settings
insert into learner_profile (user_id, language, current_level_id, updated_at)
select md5('lingua-bench-learner-' || i), 'en', (select id from language_level order by position desc, id desc limit 1), now() - interval '300 days'
from generate_series(1, current_setting('lingua_bench.learners')::int) as i;

insert into practice_settings (user_id, new_words_per_day, daily_goal, time_zone, fsrs_parameters, bridged_days, updated_at)
select md5('lingua-bench-learner-' || i), 10, 20, 'UTC', current_setting('lingua_bench.fsrs')::jsonb, '[]'::jsonb, now() - interval '300 days'
from generate_series(1, current_setting('lingua_bench.learners')::int) as i;

-- step: cards
select setseed(0.51);
insert into practice_card (user_id, word_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps,
                           lapses, state, last_review, version)
select user_id, word_id, due, scheduled_days * (0.8 + 0.4 * random()), 1 + 9 * random(), scheduled_days, scheduled_days, 0, 5,
       floor(random() ^ 3 * 2)::int, 2, due - interval '1 day' * scheduled_days, 5
from (
  select
    md5('lingua-bench-learner-' || u) as user_id,
    w.id as word_id,
    1 + floor(random() * 60)::int as scheduled_days,
    case when random() < current_setting('lingua_bench.due_share')::float
         then now() - interval '3 days' * random()
         else now() + interval '1 minute' + interval '60 days' * random() end as due
  from generate_series(1, least(current_setting('lingua_bench.learners')::int, current_setting('lingua_bench.base_learners')::int)) as u
  cross join bench_word as w
  where w.i <= current_setting('lingua_bench.cards')::int
) as drawn;

-- step: review logs
-- Card c's five grades, a week apart, the last at its last_review: grade r (1..5) found the card as
-- grade r - 1 left it (none for the first: a new word) and left it with r reps, due at the next
-- grade (the card's own due for the last). The cards as the log keeps them (JSON, store.ts's
-- LoggedCard), their dates as ISO strings.
create function bench_logged_card(c practice_card, r int) returns jsonb
language sql immutable as $$
  select jsonb_build_object(
    'due', to_jsonb(case when r = 5 then c.due else c.last_review - interval '7 days' * (4 - r) end),
    'stability', round((c.stability * r / 5)::numeric, 4),
    'difficulty', round(c.difficulty::numeric, 4),
    'elapsedDays', case when r = 1 then 0 else 7 end,
    'scheduledDays', case when r = 5 then c.scheduled_days else 7 end,
    'learningSteps', 0,
    'reps', r,
    'lapses', case when r = 5 then c.lapses else 0 end,
    'state', case when r = 1 then 1 else 2 end,
    'lastReview', to_jsonb(c.last_review - interval '7 days' * (5 - r)),
    'version', r)
$$;

insert into review_log (user_id, word_id, client_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days,
                        scheduled_days, learning_steps, review, received_at, day, goal, card_before, card_after)
select
  c.user_id, c.word_id,
  md5(c.user_id || ':' || c.word_id || ':' || r)::uuid::text,
  case when r = 1 then 3 else (array[3, 3, 3, 4, 2, 3, 1, 3])[1 + abs(hashtext(c.user_id || c.word_id || r)) % 8] end,
  case when r = 1 then 0 when r = 2 then 1 else 2 end,
  c.last_review - interval '7 days' * (5 - r),
  c.stability * r / 5, c.difficulty,
  case when r = 1 then 0 else 7 end, case when r <= 2 then 0 else 7 end,
  case when r = 5 then c.scheduled_days else 7 end, 0,
  c.last_review - interval '7 days' * (5 - r),
  c.last_review - interval '7 days' * (5 - r),
  ((c.last_review - interval '7 days' * (5 - r)) at time zone 'UTC')::date,
  20,
  case when r = 1 then null else bench_logged_card(c, r - 1) end,
  bench_logged_card(c, r)
from practice_card as c
cross join generate_series(1, 5) as r;

-- step: copies of the base learners
create table bench_copy as
select md5('lingua-bench-learner-' || i) as user_id, md5('lingua-bench-learner-' || ((i - 1) % b + 1)) as base_id
from (select current_setting('lingua_bench.base_learners')::int as b) as base
cross join generate_series(b + 1, current_setting('lingua_bench.learners')::int) as i;

insert into practice_card
select copy.user_id, c.word_id, c.due, c.stability, c.difficulty, c.elapsed_days, c.scheduled_days, c.learning_steps, c.reps,
       c.lapses, c.state, c.last_review, c.version
from bench_copy as copy
join practice_card as c on c.user_id = copy.base_id;

insert into review_log (user_id, word_id, client_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days,
                        scheduled_days, learning_steps, review, received_at, day, goal, card_before, card_after)
select copy.user_id, l.word_id, l.client_id, l.rating, l.state, l.due, l.stability, l.difficulty, l.elapsed_days, l.last_elapsed_days,
       l.scheduled_days, l.learning_steps, l.review, l.received_at, l.day, l.goal, l.card_before, l.card_after
from bench_copy as copy
join review_log as l on l.user_id = copy.base_id;

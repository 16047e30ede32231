-- The accounts of bench/admin.mjs, made by PostgreSQL itself (no row goes through Node): one
-- INSERT … SELECT from generate_series per table. The script sets `lingua_bench.accounts` (how
-- many) and runs each `-- step:` below as one statement, timing it. Deterministic: setseed first.
-- The ids are md5 hex (32 letters and digits, USER_ID_PATTERN); names are drawn with a skew
-- (the first names of each list are the most common, as in real data); emails are unique (the
-- series number is in each). Shares: 90 % confirmed, 10 % two-step, 0.5 % disabled, one
-- administrator per 200 000, 85 % signed in at least once, 70 % with a learner profile, a session
-- for those active in the last 30 days.

-- step: words
-- One row per list. Stored uncompressed (PLAIN): a compressed array is decompressed again at every
-- subscript, which made the users' INSERT ten times slower.
create temporary table bench_list (name text primary key, words text[] not null, slugs text[]);
alter table bench_list alter column words set storage plain, alter column slugs set storage plain;
insert into bench_list (name, words) values
  ('latin_firsts', array['James', 'Anna', 'John', 'Maria', 'David', 'Laura', 'Michael', 'Sarah', 'Daniel', 'Emma',
    'Andrew', 'Julia', 'Thomas', 'Olivia', 'Peter', 'Sophie', 'Paul', 'Elena', 'Mark', 'Alice',
    'Robert', 'Hannah', 'Lucas', 'Chloe', 'Anton', 'Clara', 'William', 'Mary', 'Richard', 'Linda',
    'Marco', 'Lucia', 'Pierre', 'Camille', 'Jean', 'Louise', 'Hans', 'Greta', 'Lukas', 'Lena',
    'Jan', 'Eva', 'Piotr', 'Zofia', 'Carlos', 'Carmen', 'Javier', 'Isabel', 'Miguel', 'Sofia',
    'Angela', 'Andrea', 'Antonio', 'Giulia', 'Matteo', 'Francesca', 'Luca', 'Chiara', 'Stefan', 'Katrin',
    'Felix', 'Marie', 'Jonas', 'Leonie', 'Noah', 'Mia', 'Liam', 'Ava', 'Ethan', 'Isla',
    'Oliver', 'Amelia', 'Jack', 'Grace', 'Harry', 'Ella', 'George', 'Lily', 'Oscar', 'Freya',
    'Henry', 'Ruby', 'Samuel', 'Zoe', 'Benjamin', 'Nora', 'Adam', 'Ines', 'Hugo', 'Manon',
    'Louis', 'Jade', 'Arthur', 'Léa', 'Gabriel', 'Inès', 'Mateo', 'Lucía', 'Martín', 'Valentina',
    'Diego', 'Camila', 'Tomás', 'Martina', 'Emil', 'Astrid', 'Erik', 'Ingrid', 'Lars', 'Sigrid',
    'Mehmet', 'Ayşe', 'Ali', 'Fatma', 'Yusuf', 'Zeynep', 'Kenji', 'Yuki', 'Hiroshi', 'Aiko',
    'Wei', 'Mei', 'Arjun', 'Priya', 'Rahul', 'Ananya', 'Kwame', 'Amara', 'Tariq', 'Leila',
    'Nikolai', 'Tatiana', 'Dmitri', 'Natalia', 'Andrei', 'Irina', 'Pavel', 'Svetlana', 'Igor', 'Olga']),
  ('latin_lasts', array['Smith', 'Müller', 'Garcia', 'Martin', 'Johnson', 'Rossi', 'Williams', 'Schmidt', 'Brown', 'Dubois',
    'Jones', 'Fernandez', 'Miller', 'Schneider', 'Davis', 'Bernard', 'Wilson', 'Lopez', 'Taylor', 'Fischer',
    'Anderson', 'Moreau', 'Thomas', 'Weber', 'Jackson', 'Martinez', 'White', 'Meyer', 'Harris', 'Laurent',
    'Clark', 'Wagner', 'Lewis', 'Rodriguez', 'Walker', 'Becker', 'Hall', 'Russo', 'Allen', 'Schulz',
    'Young', 'Ferrari', 'King', 'Hoffmann', 'Wright', 'Esposito', 'Scott', 'Bianchi', 'Green', 'Romano',
    'Baker', 'Colombo', 'Adams', 'Ricci', 'Nelson', 'Marino', 'Hill', 'Greco', 'Campbell', 'Bruno',
    'Mitchell', 'Gallo', 'Roberts', 'Conti', 'Carter', 'De Luca', 'Phillips', 'Mancini', 'Evans', 'Costa',
    'Turner', 'Lefebvre', 'Torres', 'Leroy', 'Parker', 'Roux', 'Collins', 'Fournier', 'Edwards', 'Girard',
    'Stewart', 'Bonnet', 'Morris', 'Dupont', 'Murphy', 'Lambert', 'Cook', 'Fontaine', 'Rogers', 'Rousseau',
    'Morgan', 'Vincent', 'Peterson', 'Keller', 'Cooper', 'Koch', 'Reed', 'Richter', 'Bailey', 'Klein',
    'Bell', 'Wolf', 'Kowalski', 'Nowak', 'Wiśniewski', 'Wójcik', 'Novák', 'Svoboda', 'Dvořák', 'Horvath',
    'Nagy', 'Kovács', 'Jensen', 'Nielsen', 'Hansen', 'Andersson', 'Johansson', 'Larsson', 'Virtanen', 'Korhonen',
    'Yilmaz', 'Kaya', 'Demir', 'Sato', 'Suzuki', 'Tanaka', 'Wang', 'Li', 'Zhang', 'Chen',
    'Kumar', 'Sharma', 'Singh', 'Patel', 'Okafor', 'Mensah', 'Haddad', 'Nasser', 'Silva', 'Santos',
    'Oliveira', 'Pereira', 'Almeida', 'Smithson', 'Goldsmith', 'Van Dijk', 'De Jong', 'Jansen', 'Bakker', 'Visser']),
  ('cyrillic_firsts', array['Александр', 'Анна', 'Дмитрий', 'Мария', 'Сергей', 'Елена', 'Андрей', 'Ольга', 'Алексей', 'Наталья',
    'Иван', 'Татьяна', 'Михаил', 'Екатерина', 'Николай', 'Ирина', 'Владимир', 'Светлана', 'Павел', 'Юлия',
    'Артём', 'Анастасия', 'Максим', 'Дарья', 'Евгений', 'Ксения', 'Кирилл', 'Полина', 'Никита', 'Виктория',
    'Олег', 'Алина', 'Роман', 'Софья', 'Игорь', 'Людмила', 'Денис', 'Вера', 'Антон', 'Галина']),
  ('cyrillic_lasts', array['Иванов', 'Смирнова', 'Кузнецов', 'Попова', 'Васильев', 'Петрова', 'Соколов', 'Михайлова', 'Новиков', 'Фёдорова',
    'Морозов', 'Волкова', 'Алексеев', 'Лебедева', 'Семёнов', 'Егорова', 'Павлов', 'Козлова', 'Степанов', 'Николаева',
    'Орлов', 'Андреева', 'Макаров', 'Захарова', 'Зайцев', 'Соловьёва', 'Борисов', 'Яковлева', 'Григорьев', 'Романова',
    'Воробьёв', 'Сергеева', 'Кузьмин', 'Фролова', 'Александров', 'Дмитриева', 'Королёв', 'Гусева', 'Киселёв', 'Ильина']),
  ('domains', array['gmail.com', 'outlook.com', 'yahoo.com', 'yandex.ru', 'mail.ru', 'icloud.com', 'proton.me', 'gmx.de',
    'web.de', 'orange.fr', 'libero.it', 'hotmail.com', 'example.org', 'university.edu', 'company.example']),
  ('user_agents', array['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0']),
  ('languages', array['en', 'fr', 'de', 'es', 'it', 'ja', 'zh', 'pt', 'ru', 'ko']),
  ('levels', array(select id::text from language_level order by position, id));
-- The names as they appear in an address: Latin letters only (Cyrillic transliterated, accents
-- dropped, spaces removed).
update bench_list set slugs = array(
  select regexp_replace(
    translate(lower(word),
              'абвгдеёжзийклмнопрстуфхцчшщыэюяéèáàíóúñçäöüßøåłśćńżźšžčřěýğışьъ',
              'abvgdeejziiklmnoprstufhccssyeuaeeaaiouncaousoalscnzzszcreygis'),
    '[^a-z]', '', 'g')
  from unnest(words) with ordinality as listed(word, n) order by n)
where name like '%firsts' or name like '%lasts';

-- step: users
select setseed(0.15);
insert into "user" (id, name, email, email_verified, created_at, updated_at, two_factor_enabled, role,
                    banned, ban_reason, last_sign_in_at, last_active_at)
select
  md5('lingua-bench-user-' || i),
  first_name || ' ' || last_name,
  case style when 0 then first_slug || '.' || last_slug
             when 1 then left(first_slug, 1) || last_slug
             else first_slug || '_' || left(last_slug, 1) end || i || '@' || domain,
  verified, created_at, created_at, two_factor,
  case when i % 200000 = 0 then 'admin' else 'user' end,
  banned,
  case when banned then 'Spam' end,
  case when signs_in then active_at - least(active_at - created_at, interval '30 days' * random()) end,
  case when signs_in then active_at end
from (
  select
    i, style, verified, two_factor, banned, signs_in, created_at,
    -- Last seen: a quarter of the accounts within 30 days, a sixth within 7 (never before sign-up).
    greatest(created_at, now() - interval '730 days' * random() ^ 2.5) as active_at,
    first_list.words[1 + floor(first_draw * cardinality(first_list.words))::int] as first_name,
    first_list.slugs[1 + floor(first_draw * cardinality(first_list.words))::int] as first_slug,
    last_list.words[1 + floor(last_draw * cardinality(last_list.words))::int] as last_name,
    last_list.slugs[1 + floor(last_draw * cardinality(last_list.words))::int] as last_slug,
    dm.words[1 + floor(random() ^ 1.5 * cardinality(dm.words))::int] as domain
  from (
    select
      i, cyrillic,
      floor(random() * 3)::int as style,
      -- Skewed towards the start of each list: the common names first.
      random() ^ 2 as first_draw,
      random() ^ 2 as last_draw,
      random() < 0.9 as verified,
      random() < 0.1 as two_factor,
      random() < 0.005 as banned,
      random() < 0.85 as signs_in,
      -- Two years of sign-ups, more of them lately (a growing service).
      now() - interval '730 days' * (1 - sqrt(random())) as created_at
    from (
      select i, random() < 0.2 as cyrillic from generate_series(1, current_setting('lingua_bench.accounts')::int) as i
    ) as series
  ) as drawn
  -- A fifth of the people have Russian names.
  join bench_list as first_list on first_list.name = case when cyrillic then 'cyrillic_firsts' else 'latin_firsts' end
  join bench_list as last_list on last_list.name = case when cyrillic then 'cyrillic_lasts' else 'latin_lasts' end
  cross join (select words from bench_list where name = 'domains') as dm
) as people
-- In id order: the primary key's pages fill one after the other instead of at random.
order by 1;

-- step: accounts
-- The ids of the other tables come from the user's (md5 is the costly part of the users' INSERT):
-- unique within their table, and of the same form.
insert into account (id, account_id, provider_id, user_id, password, created_at, updated_at)
select
  upper(id), id, 'credential', id,
  -- One scrypt-shaped hash for all (salt:key, as better-auth stores it): nobody signs in as them.
  '5f1c2a8e9b3d4c6f7a8b9c0d1e2f3a4b:' || repeat('0123456789abcdef', 8),
  created_at, created_at
from "user"
order by id;

-- step: learner profiles
select setseed(0.27);
insert into learner_profile (user_id, language, current_level_id, target_level_id, updated_at)
select
  id,
  lang.words[1 + floor(random() ^ 2 * cardinality(lang.words))::int],
  lv.words[current_index]::int,
  -- One or two levels above the current one (the last level stays), for nine in ten.
  case when current_index is not null and random() < 0.9
       then lv.words[least(cardinality(lv.words), current_index + 1 + floor(random() * 2)::int)]::int end,
  updated_at
from (
  select
    id,
    created_at + (now() - created_at) * random() as updated_at,
    -- Nine in ten have a level; beginners are the most numerous.
    case when random() < 0.9 then 1 + floor(random() ^ 1.5 * 6)::int end as current_index
  from "user"
  where random() < 0.7
) as profiled
cross join (select words from bench_list where name = 'languages') as lang
cross join (select words from bench_list where name = 'levels') as lv;

-- step: sessions
select setseed(0.39);
insert into session (id, token, expires_at, created_at, updated_at, ip_address, user_agent, user_id)
select
  reverse(u.id),
  u.id || upper(reverse(u.id)),
  u.last_active_at + interval '7 days',
  u.last_sign_in_at,
  u.last_active_at,
  (10 + floor(random() * 200))::int || '.' || floor(random() * 256)::int || '.' || floor(random() * 256)::int || '.'
    || (1 + floor(random() * 254))::int,
  ua.words[1 + floor(random() * cardinality(ua.words))::int],
  u.id
from "user" as u
cross join (select words from bench_list where name = 'user_agents') as ua
where u.last_active_at > now() - interval '30 days' and not u.banned;

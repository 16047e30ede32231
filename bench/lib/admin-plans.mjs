// The SQL of the people table's reads, written here as src/server/api/admin/people.ts builds it
// with drizzle (keep the two alike: bench/admin.mjs checks that this page query finds the same
// rows as the API), and their plans: EXPLAIN (ANALYZE, BUFFERS), the scans each one uses.
const PEOPLE_COUNT_CAP = 1_000
const PEOPLE_SEARCH_COUNT_CAP = 200
const PEOPLE_SUBSTRING_MIN = 3

/** A string literal of SQL. */
const literal = (text) => `'${String(text).replaceAll("'", "''")}'`

/** `\`, `%` and `_` match themselves in a LIKE pattern (people.ts's escapeLike). */
const escapeLike = (text) => text.replace(/[\\%_]/g, (char) => `\\${char}`)

/** The WHERE of a query string's search and filters (people.ts's `conditions`). */
function conditions(params) {
  const where = []
  const q = params.get('q')?.trim().toLowerCase()
  if (q) {
    const pattern = q.length >= PEOPLE_SUBSTRING_MIN ? `%${escapeLike(q)}%` : `${escapeLike(q)}%`
    where.push(`(lower("user"."name") like ${literal(pattern)} or lower("user"."email") like ${literal(pattern)})`)
  }
  if (params.get('role') === 'admin') where.push(`"user"."role" = 'admin'`)
  if (params.get('role') === 'user') where.push(`"user"."role" is distinct from 'admin'`)
  const yes = (name, ifYes, ifNo) => {
    if (params.has(name)) where.push(params.get(name) === 'yes' ? ifYes : ifNo)
  }
  yes('confirmed', `"user"."email_verified" = true`, `"user"."email_verified" = false`)
  yes('mfa', `"user"."two_factor_enabled" is true`, `"user"."two_factor_enabled" is not true`)
  yes('disabled', `"user"."banned"`, `"user"."banned" is not true`)
  return where.length > 0 ? `where ${where.join(' and ')}` : ''
}

/** The ORDER BY of a sort (people.ts's `orderBy`). */
function orderBy(sort) {
  const descending = sort.startsWith('-')
  const key = descending ? sort.slice(1) : sort
  const direction = descending ? 'desc' : 'asc'
  const column = { name: 'lower("user"."name")', email: '"user"."email"', createdAt: '"user"."created_at"' }[key]
  if (column) return `${column} ${direction}, "user"."id" ${direction}`
  if (key !== 'lastSignInAt') throw new Error(`unknown sort ${sort}`)
  return descending ? `"user"."last_sign_in_at" desc nulls last, "user"."id" desc` : `"user"."last_sign_in_at" asc nulls first, "user"."id" asc`
}

/** The two statements of `GET /api/admin/users?<query>`: the page's rows and the capped count. */
export function peopleSql(query) {
  const params = new URLSearchParams(query)
  const page = Number(params.get('page') ?? 1)
  const pageSize = Number(params.get('pageSize') ?? 20)
  const where = conditions(params)
  const order = orderBy(params.get('sort') ?? '-createdAt')
  const cap = params.get('q')?.trim() ? PEOPLE_SEARCH_COUNT_CAP : PEOPLE_COUNT_CAP
  return {
    page:
      `select "user"."id", "user"."name", "user"."email", "user"."image", "user"."role", "user"."email_verified", ` +
      `"user"."two_factor_enabled", "user"."banned", "user"."created_at", "user"."last_sign_in_at" ` +
      `from (select "user"."id" from "user" ${where} order by ${order} limit ${pageSize} offset ${(page - 1) * pageSize}) as "page_ids" ` +
      `inner join "user" on "user"."id" = "page_ids"."id" order by ${order}`,
    count: `select count(*) from (select "user"."id" from "user" ${where} limit ${cap + 1}) as "capped"`,
  }
}

/** The overview's aggregates (overview.ts's computeOverview), for their plans. */
export const overviewSql = {
  figures:
    `select count(*), count(case when email_verified then 1 end), count(case when two_factor_enabled then 1 end), ` +
    `count(case when banned then 1 end), count(case when role = 'admin' then 1 end), ` +
    `count(case when last_active_at >= now() - interval '7 days' then 1 end), ` +
    `count(case when last_active_at >= now() - interval '30 days' then 1 end), ` +
    `count(case when created_at >= date_trunc('week', now()) then 1 end) from "user"`,
  currentLevels:
    'select current_level_id, count(*) from learner_profile where current_level_id is not null group by current_level_id',
  signUpsPerWeek:
    `select to_char(date_trunc('week', created_at at time zone 'UTC'), 'YYYY-MM-DD') as week, count(*) from "user" ` +
    `where created_at >= date_trunc('week', now()) - interval '11 weeks' group by week`,
}

const scanPattern = /(Parallel )?(Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan|Seq Scan)( Backward)? (?:using (\S+) )?on (\S+)/

/**
 * EXPLAIN (ANALYZE, BUFFERS) of `sql` on `client`: the plan's text, its execution time, the scans
 * it uses ("Index Scan user_created_at_idx", "Seq Scan "user""), whether one is a sequential scan of
 * the user table, and how many rows such scans read (a scan under a LIMIT stops early).
 */
export async function explain(client, sql) {
  const { rows } = await client.query(`explain (analyze, buffers) ${sql}`)
  const lines = rows.map((row) => row['QUERY PLAN'])
  const scans = []
  for (const line of lines) {
    const m = scanPattern.exec(line)
    if (!m) continue
    const [, parallel = '', kind, backward = '', index, table] = m
    if (kind === 'Bitmap Heap Scan') continue
    const scan = `${parallel}${kind}${backward} ${index ?? table}`
    if (!scans.includes(scan)) scans.push(scan)
  }
  const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1])
  let seqRowsOfUser = 0
  lines.forEach((line, index) => {
    if (!/Seq Scan on "user"/.test(line)) return
    const [, rows = '0', loops = '1'] = /actual time=\S+ rows=(\d+) loops=(\d+)/.exec(line) ?? []
    const removed = lines.slice(index + 1, index + 4).map((next) => /Rows Removed by Filter: (\d+)/.exec(next)?.[1]).find(Boolean) ?? '0'
    seqRowsOfUser += (Number(rows) + Number(removed)) * Number(loops)
  })
  return { lines, scans, executionMs, seqScanOfUser: seqRowsOfUser > 0 || lines.some((line) => /Seq Scan on "user"/.test(line)), seqRowsOfUser }
}

/** The ids a page query finds, in order: to compare with the API's answer. */
export async function pageIds(client, query) {
  const { rows } = await client.query(peopleSql(query).page)
  return rows.map((row) => row.id)
}

import { and, count, eq, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import { REMINDER_STOP_PAGE, REMINDER_UNSUBSCRIBE_PATH, REMINDER_WINDOW_MINUTES } from '@/shared/reminders'
import { dayIn } from '@/shared/practice-days'
import { counted, dueCounts, learnerState, newWords } from '@/server/api/practice/queue'
import type { Config } from '@/server/config'
import type { Db } from '@/server/db/client'
import { practiceReminder, practiceSettings, reviewLog, user } from '@/server/db/schema'
import { startPeriodic, type Periodic } from '@/server/jobs/periodic'
import { type Mailer, composeMail, resolveMailLocale } from '@/server/mail/index'
import type { ReminderTokens } from './token'

/**
 * The daily practice reminders (PRODUCT §13, docs/decisions/0035-reminders.md), swept every minute
 * by every instance: the learners whose reminder hour has just begun in their time zone (or who
 * turned it on within it) are found in SQL first; for each, the row of `practice_reminder` (learner,
 * day) is claimed before anything else, so that of several instances one goes on; then, only when
 * the goal is not met and cards wait, the email goes. A claim that sends nothing is given back.
 */

const WINDOW_MS = REMINDER_WINDOW_MINUTES * 60_000
/** Learners looked at a query; a sweep goes on until none is left. */
const BATCH = 200

/** The wall clock of a time zone at an instant: its date, hour and minute. */
interface ZoneClock {
  zone: string
  day: string
  hour: number
  minute: number
}

const clockFormats = new Map<string, Intl.DateTimeFormat>()

function clockIn(zone: string, at: Date): ZoneClock {
  let format = clockFormats.get(zone)
  if (!format) {
    // Zones come from `practice_settings`, validated: a few hundred names at most.
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' })
    clockFormats.set(zone, format)
  }
  const parts = format.formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return { zone, day: dayIn(zone, at), hour: part('hour'), minute: part('minute') }
}

/**
 * How many cards wait for the learner now (due now, and new words still allowed today), or 0 when
 * today's goal is met: what the queue and today's summary count (queue.ts), without reading the queue.
 */
async function cardsWaiting(db: Db, userId: string, now: Date): Promise<number> {
  const state = await learnerState(db, userId, now)
  const { settings } = state
  const today = dayIn(settings.timeZone, now)
  const [done] = await db
    .select({
      reviews: count(),
      // Today's goal: its last review's (a change later that day is written onto its reviews).
      goal: sql<number | null>`(array_agg(${reviewLog.goal} order by ${reviewLog.id} desc))[1]`,
    })
    .from(reviewLog)
    .where(and(counted(userId), eq(reviewLog.day, today)))
  if ((done?.reviews ?? 0) >= Number(done?.goal ?? settings.dailyGoal)) return 0
  const [due, fresh] = await Promise.all([dueCounts(db, userId, settings.timeZone, now), newWords(db, userId, state, today)])
  return due.dueNow + fresh.allowed
}

interface Candidate {
  userId: string
  email: string
  mailLocale: string
  day: string
}

/**
 * The learners whose reminder is due at `now`: on, at the hour their zone's clock shows, in its
 * first minutes or turned on (or moved to this hour) in the last minutes, with a verified address
 * and an account not disabled, and none sent for their day yet. Keyset-paged by user id.
 */
async function candidates(db: Db, clocks: ZoneClock[], now: Date, after: string): Promise<Candidate[]> {
  if (clocks.length === 0) return []
  const slots = sql.join(
    clocks.map((clock) => sql`(${clock.zone}::text, ${clock.hour}::int, ${clock.day}::date, ${clock.minute < REMINDER_WINDOW_MINUTES}::boolean)`),
    sql`, `,
  )
  const since = new Date(now.getTime() - WINDOW_MS)
  // Both drivers answer `{ rows }`; the shared Db type cannot say which row type.
  const result: unknown = await db.execute(sql`
    select s.user_id, u.email, s.mail_locale, slot.day::text as day
    from (values ${slots}) as slot(zone, hour, day, opening)
    join ${practiceSettings} s on s.time_zone = slot.zone and s.reminder_hour = slot.hour and s.reminder_enabled
    join ${user} u on u.id = s.user_id
    where (slot.opening or s.reminder_set_at > ${since.toISOString()}::timestamptz)
      and u.email_verified and not coalesce(u.banned, false)
      and s.user_id > ${after}
      and not exists (select 1 from ${practiceReminder} r where r.user_id = s.user_id and r.day = slot.day)
    order by s.user_id
    limit ${BATCH}`)
  const { rows } = result as { rows: { user_id: string; email: string; mail_locale: string; day: string }[] }
  return rows.map((row) => ({ userId: row.user_id, email: row.email, mailLocale: row.mail_locale, day: row.day }))
}

export interface ReminderSweepOptions {
  db: Db
  logger: Logger
  mailer: Mailer
  config: Pick<Config, 'appUrl' | 'appName'>
  tokens: ReminderTokens
  now: () => Date
}

/** One sweep at `now()`: sends the reminders due, each once across instances. */
async function sweepReminders(options: ReminderSweepOptions): Promise<void> {
  const { db, logger, mailer, config, tokens } = options
  const now = options.now()
  const zones = await db.selectDistinct({ zone: practiceSettings.timeZone }).from(practiceSettings).where(eq(practiceSettings.reminderEnabled, true))
  const clocks = zones.map(({ zone }) => clockIn(zone, now))
  let after = ''
  for (;;) {
    const batch = await candidates(db, clocks, now, after)
    for (const candidate of batch) await remind(candidate)
    const last = batch.at(-1)
    if (!last || batch.length < BATCH) return
    after = last.userId
  }

  async function remind({ userId, email, mailLocale, day }: Candidate): Promise<void> {
    // The claim: the first instance to insert the row goes on; the others find it and skip.
    const [claimed] = await db.insert(practiceReminder).values({ userId, day, sentAt: now }).onConflictDoNothing().returning()
    if (!claimed) return
    const release = () => db.delete(practiceReminder).where(and(eq(practiceReminder.userId, userId), eq(practiceReminder.day, day)))
    try {
      const waiting = await cardsWaiting(db, userId, now)
      // Nothing waits, or the goal is met: no email, and a later sweep within the window may look again.
      if (waiting === 0) {
        await release()
        return
      }
      const token = encodeURIComponent(tokens.sign(userId))
      const mail = composeMail(email, {
        kind: 'practice-reminder',
        appName: config.appName,
        locale: resolveMailLocale(mailLocale),
        link: `${config.appUrl}/practice`,
        count: waiting,
        stopLink: `${config.appUrl}${REMINDER_STOP_PAGE}?token=${token}`,
        oneClickUrl: `${config.appUrl}${REMINDER_UNSUBSCRIBE_PATH}?token=${token}`,
      })
      // The claim row is the once-a-day guard: the throttle of requested emails has no say.
      await mailer.send(mail, { claimed: true })
      logger.info({ userId, day, cards: waiting }, 'practice reminder sent')
    } catch (error) {
      // Not sent: the row goes, so that this or another instance tries again within the window.
      logger.warn({ err: error, userId, day }, 'could not send a practice reminder')
      await release().catch((releaseError: unknown) => logger.error({ err: releaseError, userId }, 'could not release a practice reminder'))
    }
  }
}

/** The sweep of this instance, every `everyMs` (a minute), stopped on shutdown. */
export function startReminderSweep(options: ReminderSweepOptions & { everyMs: number }): Periodic {
  return startPeriodic({ name: 'the practice reminders sweep', logger: options.logger, everyMs: options.everyMs, run: () => sweepReminders(options) })
}

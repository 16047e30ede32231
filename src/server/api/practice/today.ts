import { count, sql } from 'drizzle-orm'
import { CALENDAR_DAYS, type PracticeToday } from '@/shared/practice'
import { calendar, dayIn, streaks } from '@/shared/practice-days'
import type { Db } from '@/server/db/client'
import { reviewLog } from '@/server/db/schema'
import { counted, dueCounts, learnerState, newWords } from './queue'

/**
 * Today in the learner's time zone: what is due, what is new, the goal, the streak, the calendar.
 * The rules are docs/decisions/0019-practice.md.
 */
export async function practiceToday(db: Db, userId: string, now: Date): Promise<PracticeToday> {
  const state = await learnerState(db, userId, now)
  const { settings } = state
  const today = dayIn(settings.timeZone, now)
  const [counts, days, fresh] = await Promise.all([
    dueCounts(db, userId, settings.timeZone, now),
    db
      .select({
        date: reviewLog.day,
        reviews: count(),
        // The day's goal: its last review's (a change later that day is written onto its reviews).
        goal: sql<number>`(array_agg(${reviewLog.goal} order by ${reviewLog.id} desc))[1]`.mapWith(Number),
      })
      .from(reviewLog)
      .where(counted(userId))
      .groupBy(reviewLog.day),
    newWords(db, userId, state, today),
  ])
  const input = { days, today, bridged: settings.bridgedDays }
  const { current, longest } = streaks(input)
  const todays = days.find((day) => day.date === today)
  const done = todays?.reviews ?? 0
  // The current goal, unless today is a date that came again (a move west) with its own.
  const goal = todays?.goal ?? settings.dailyGoal
  return {
    day: today,
    timeZone: settings.timeZone,
    dueToday: counts.dueToday,
    dueNow: counts.dueNow,
    newToday: fresh.allowed,
    newWords: fresh.source,
    done,
    goal,
    goalMet: done >= goal,
    streak: current,
    longest,
    calendar: calendar(input, CALENDAR_DAYS),
  }
}

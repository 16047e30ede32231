import { describe, expect, it } from 'vitest'
import {
  type DayReviews,
  addDays,
  bridgedByZoneChange,
  calendar,
  canonicalTimeZone,
  dayIn,
  endOfDay,
  isTimeZone,
  sameTimeZone,
  streaks,
} from '@/shared/practice-days'

const at = (iso: string) => new Date(iso)

describe("the learner's day", () => {
  it('is the date in their time zone, not the server’s', () => {
    const instant = at('2026-03-10T23:30:00Z')
    expect(dayIn('UTC', instant)).toBe('2026-03-10')
    expect(dayIn('Europe/Moscow', instant)).toBe('2026-03-11')
    expect(dayIn('America/Los_Angeles', instant)).toBe('2026-03-10')
    expect(dayIn('Pacific/Kiritimati', at('2026-03-10T10:00:00Z'))).toBe('2026-03-11')
    expect(dayIn('Pacific/Pago_Pago', at('2026-03-10T10:00:00Z'))).toBe('2026-03-09')
  })

  it('knows IANA zones and refuses anything else', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) expect(isTimeZone(zone), zone).toBe(true)
    for (const zone of ['', 'Mars/Olympus', 'Europe/Berlin\u0000', '../etc/passwd', ' UTC', 'x'.repeat(70)]) {
      expect(isTimeZone(zone), zone).toBe(false)
    }
  })

  it('names a zone by its canonical name, whatever the case it was sent in', () => {
    expect(canonicalTimeZone('eUROPE/bERLIN')).toBe('Europe/Berlin')
    expect(canonicalTimeZone('utc')).toBe('UTC')
    // Every spelling of one zone is one name (an outside probe sent 2^28 of this one).
    const probe = canonicalTimeZone('aMerIca/ARGEntinA/comodRivadavia')
    expect(probe).toBe(canonicalTimeZone('America/Argentina/ComodRivadavia'))
    expect(probe).toMatch(/^America\/[A-Z]/)
    for (const zone of ['', 'Mars/Olympus', '../etc/passwd', ' UTC']) expect(canonicalTimeZone(zone), zone).toBeUndefined()
    // A browser's name of the zone the server stored under another name is the same zone.
    expect(sameTimeZone('US/Eastern', 'America/New_York')).toBe(true)
    expect(sameTimeZone('Europe/Kyiv', canonicalTimeZone('Europe/Kyiv') ?? '')).toBe(true)
    expect(sameTimeZone('Europe/Kyiv', 'Europe/Berlin')).toBe(false)
  })

  it('ends at the next local midnight, on days of 24, 23 and 25 hours (daylight saving)', () => {
    // An ordinary day in Berlin (UTC+1 in winter).
    expect(endOfDay('Europe/Berlin', at('2026-01-15T12:00:00Z')).toISOString()).toBe('2026-01-15T23:00:00.000Z')
    // 29 March 2026: clocks go from 02:00 to 03:00 in Berlin; the day has 23 hours and ends at
    // midnight of UTC+2.
    expect(endOfDay('Europe/Berlin', at('2026-03-29T00:30:00Z')).toISOString()).toBe('2026-03-29T22:00:00.000Z')
    // 25 October 2026: back from 03:00 to 02:00; 25 hours, ending at midnight of UTC+1.
    expect(endOfDay('Europe/Berlin', at('2026-10-24T22:30:00Z')).toISOString()).toBe('2026-10-25T23:00:00.000Z')
    // New York's spring change, 8 March 2026.
    expect(endOfDay('America/New_York', at('2026-03-08T12:00:00Z')).toISOString()).toBe('2026-03-09T04:00:00.000Z')
  })

  it('counts an hour repeated by daylight saving once, in the same day', () => {
    // 01:30 happens twice in New York on 1 November 2026: both are that date.
    expect(dayIn('America/New_York', at('2026-11-01T05:30:00Z'))).toBe('2026-11-01')
    expect(dayIn('America/New_York', at('2026-11-01T06:30:00Z'))).toBe('2026-11-01')
    expect(endOfDay('America/New_York', at('2026-11-01T05:30:00Z')).toISOString()).toBe('2026-11-02T05:00:00.000Z')
  })

  it('ends where the zone says when its midnight does not exist', () => {
    // Santiago moves its clocks from 24:00 to 01:00 on 6 September 2026: 5 September ends at
    // what was going to be midnight, the new day starting at 01:00 local time.
    const end = endOfDay('America/Santiago', at('2026-09-05T12:00:00Z'))
    expect(dayIn('America/Santiago', end)).toBe('2026-09-06')
    expect(dayIn('America/Santiago', new Date(end.getTime() - 60_000))).toBe('2026-09-05')
  })

  it('adds days across months, years and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  })
})

const goal = 20
const day = (date: string, reviews: number, dayGoal = goal): DayReviews => ({ date, reviews, goal: dayGoal })

describe('the streak', () => {
  const today = '2026-05-10'

  it('counts consecutive days with the goal met; today unmet does not break it yet', () => {
    const days = [day('2026-05-07', 20), day('2026-05-08', 25), day('2026-05-09', 30), day('2026-05-10', 3)]
    expect(streaks({ days, today, bridged: [] })).toEqual({ current: 3, longest: 3 })
    // Met today too: one more.
    expect(streaks({ days: [...days.slice(0, 3), day(today, 20)], today, bridged: [] })).toEqual({ current: 4, longest: 4 })
  })

  it('is broken by a day missed before yesterday, and keeps the longest', () => {
    const days = [
      day('2026-04-01', 20), day('2026-04-02', 20), day('2026-04-03', 20), day('2026-04-04', 20),
      day('2026-05-07', 20), day('2026-05-08', 20),
    ]
    expect(streaks({ days, today, bridged: [] })).toEqual({ current: 0, longest: 4 })
    expect(streaks({ days, today: '2026-05-09', bridged: [] })).toEqual({ current: 2, longest: 4 })
  })

  it('judges a day below its goal as missed, and each day by the goal it had, today’s too', () => {
    const days = [day('2026-05-08', 19), day('2026-05-09', 12, 10)]
    expect(streaks({ days, today, bridged: [] })).toEqual({ current: 1, longest: 1 })
    // Today's goal raised after its reviews (the store writes it onto the day): they fall short.
    expect(streaks({ days: [day(today, 20, 30)], today, bridged: [] }).current).toBe(0)
  })

  it('is joined across dates a time-zone change bridged, which do not count in its length', () => {
    const days = [day('2026-05-06', 20), day('2026-05-07', 20), day('2026-05-09', 20)]
    expect(streaks({ days, today, bridged: [] })).toEqual({ current: 1, longest: 2 })
    expect(streaks({ days, today, bridged: ['2026-05-08'] })).toEqual({ current: 3, longest: 3 })
  })

  it('counts a date after today (a move west) in the current streak', () => {
    const days = [day('2026-05-09', 20), day('2026-05-10', 20), day('2026-05-11', 20)]
    expect(streaks({ days, today, bridged: [] })).toEqual({ current: 3, longest: 3 })
  })
})

describe('a change of time zone', () => {
  it('moving east across midnight bridges the date left behind', () => {
    // 20:00 in New York on 9 May is 08:00 on 10 May in Tokyo.
    const change = at('2026-05-10T00:00:00Z')
    expect(bridgedByZoneChange('America/New_York', 'Asia/Tokyo', change, [])).toEqual(['2026-05-09'])
  })

  it('bridges every date skipped by the largest jump, and nothing moving west or within a date', () => {
    const change = at('2026-05-10T10:30:00Z')
    // Pago Pago (UTC−11): 9 May 23:30; Kiritimati (UTC+14): 11 May 00:30.
    expect(bridgedByZoneChange('Pacific/Pago_Pago', 'Pacific/Kiritimati', change, [])).toEqual(['2026-05-09', '2026-05-10'])
    expect(bridgedByZoneChange('Pacific/Kiritimati', 'Pacific/Pago_Pago', change, [])).toEqual([])
    expect(bridgedByZoneChange('Europe/Paris', 'Europe/Berlin', change, [])).toEqual([])
  })

  it('bridges at most once in 7 days, so that switching back and forth is no substitute for practice', () => {
    const eastward = (iso: string, bridged: string[]) =>
      bridgedByZoneChange('America/New_York', 'Asia/Tokyo', at(iso), bridged)
    const first = eastward('2026-05-10T00:00:00Z', [])
    expect(first).toEqual(['2026-05-09'])
    // The next evening, and six days later: nothing more.
    expect(eastward('2026-05-11T00:00:00Z', first)).toEqual([])
    expect(eastward('2026-05-16T00:00:00Z', first)).toEqual([])
    expect(eastward('2026-05-17T00:00:00Z', first)).toEqual(['2026-05-16'])
  })

  it('never breaks a streak: the day left behind joins, the repeated date counts once', () => {
    // Met 7–9 May in New York; flew to Tokyo on the evening of 9 May before practising... then
    // practised on 10 May in Tokyo: no break.
    const bridged = bridgedByZoneChange('America/New_York', 'Asia/Tokyo', at('2026-05-09T23:00:00Z'), [])
    const days = [day('2026-05-07', 20), day('2026-05-08', 20), day('2026-05-10', 20)]
    expect(streaks({ days, today: '2026-05-10', bridged })).toEqual({ current: 3, longest: 3 })
    // Flying west, 10 May comes again: its reviews, before and after, are one date's.
    const west = [day('2026-05-09', 20), day('2026-05-10', 25)]
    expect(streaks({ days: west, today: '2026-05-10', bridged: [] })).toEqual({ current: 2, longest: 2 })
  })
})

describe('the calendar', () => {
  it('is the 84 days ending today with reviews and met goals, oldest first', () => {
    const days = [day('2026-05-10', 5), day('2026-05-09', 20), day('2026-02-16', 40), day('2026-02-15', 40)]
    const weeks = calendar({ days, today: '2026-05-10', bridged: [] }, 84)
    expect(weeks).toHaveLength(84)
    expect(weeks[0]).toEqual({ date: '2026-02-16', reviews: 40, goalMet: true })
    expect(weeks.at(-1)).toEqual({ date: '2026-05-10', reviews: 5, goalMet: false })
    expect(weeks.at(-2)).toEqual({ date: '2026-05-09', reviews: 20, goalMet: true })
    expect(weeks.filter((d) => d.reviews > 0)).toHaveLength(3)
  })

  it('runs through a daylight-saving change without a gap or a repeated date', () => {
    const weeks = calendar({ days: [], today: '2026-04-05', bridged: [] }, 84)
    const dates = weeks.map((d) => d.date)
    expect(new Set(dates).size).toBe(84)
    expect(dates).toContain('2026-03-29')
    expect(dates).toContain('2026-03-08')
  })
})

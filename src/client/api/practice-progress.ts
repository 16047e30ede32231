import { useStore } from '@nanostores/react'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import type { NewWordsSource, PracticeSettings, PracticeToday } from '@/shared/practice'
import { sameTimeZone } from '@/shared/practice-days'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import { api } from '@/client/lib/api'
import { languageName } from '@/client/lib/language-names'
import { currentUser } from '@/client/lib/auth'

/**
 * The learner's day of practice (docs/product.md §11): today's counts, the streak and the calendar
 * (the dashboard's "Today" card), and the settings ("Practice" on /account). Every key of practice
 * is under `practiceKeys.all` (the practice page's queue too: features/practice/api). One's own
 * data: read again after a change of one's account or of a level (the words to learn), and of
 * one's practice in another tab (or this one: the stream tells every tab).
 */
const all = ['practice'] as const
export const practiceKeys = {
  all,
  today: [...all, 'today'] as const,
  settings: [...all, 'settings'] as const,
}

export const practiceTodayQuery = () =>
  queryOptions({
    queryKey: practiceKeys.today,
    queryFn: ({ signal }) => api<PracticeToday>('/me/practice/today', { signal }),
    meta: { live: { account: true, levels: true, practice: true } },
  })

export const practiceSettingsQuery = () =>
  queryOptions({
    queryKey: practiceKeys.settings,
    queryFn: ({ signal }) => api<PracticeSettings>('/me/practice/settings', { signal }),
    meta: { live: { account: true, levels: true, practice: ({ reason }) => reason === 'settings' } },
  })

export const savePracticeSettings = (input: PracticeSettingsInput) =>
  api<PracticeSettings>('/me/practice/settings', { method: 'PUT', json: input })

/** What a change of one's practice does to the cached reads of it (the same functions every render). */
export function usePracticeCache() {
  const client = useQueryClient()
  return useMemo(() => {
    /** Today's counts and streak read again: a grade or an undo counted, the settings saved. */
    const todayChanged = () => void client.invalidateQueries({ queryKey: practiceKeys.today })
    return {
      todayChanged,
      /** The settings as saved are the ones shown; today's goal and new words may have changed. */
      settingsSaved: (saved: PracticeSettings) => {
        client.setQueryData(practiceKeys.settings, saved)
        todayChanged()
      },
    }
  }, [client])
}

/** The words of each page for why no new word comes (their messages: the dashboard's, the practice page's). */
interface NewWordsTexts {
  noWords: (values: { level: string; language: string }) => string
  noWordsAtLevel: (values: { level: string }) => string
  levelLearned: (values: { level: string }) => string
}

/**
 * Why no new word comes from the current level, when the learner can change it (another level or
 * language): undefined when new words come, are done for today, or there is no level (the pages
 * say how to choose one, with the self-assessment).
 */
export function newWordsNote(source: NewWordsSource, texts: NewWordsTexts, language: string): string | undefined {
  const level = source.levelCode ?? ''
  if (source.status === 'levelLearned') return texts.levelLearned({ level })
  if (source.status !== 'noWords') return undefined
  return source.language
    ? texts.noWords({ level, language: languageName(language, source.language) })
    : texts.noWordsAtLevel({ level })
}

/** The time zone this browser is in (IANA), or undefined when it does not say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined
  } catch {
    return undefined
  }
}

/** The people whose settings this page load has sent (or is sending) the browser's time zone with. */
const zoneSentFor = new Set<string>()

/**
 * Keeps the stored time zone the browser's: when the settings say another one, sends the
 * browser's with them (PUT settings), at most once per page load — a failed send waits for the next
 * load, and a zone changed elsewhere meanwhile (another device) is not fought over. The server
 * makes a changed zone safe for the streak (docs/decisions/0019-practice.md).
 */
export function useSyncTimeZone(): void {
  const { settingsSaved } = usePracticeCache()
  const user = useStore(currentUser)
  const settings = useQuery(practiceSettingsQuery())
  const stored = settings.data
  useEffect(() => {
    const zone = browserTimeZone()
    // Per person: someone else signing in on this page load has their own settings.
    if (!user || zoneSentFor.has(user.id) || !stored || !zone || sameTimeZone(zone, stored.timeZone)) return
    zoneSentFor.add(user.id)
    // The numbers it must send and the zone; the rest (ways, the reminder, retention) is kept when
    // left out, so that a copy read earlier cannot undo a change made since (a reminder turned off
    // from its email).
    const { newWordsPerDay, dailyGoal } = stored
    savePracticeSettings({ newWordsPerDay, dailyGoal, timeZone: zone }).then(
      settingsSaved,
      // Not worth a word to the learner: their day stays the stored zone's until the next load.
      () => undefined,
    )
  }, [user, stored, settingsSaved])
}

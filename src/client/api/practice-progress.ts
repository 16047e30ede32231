import { useStore } from '@nanostores/react'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { NewWordsSource, PracticeSettings, PracticeToday } from '@/shared/practice'
import { sameTimeZone } from '@/shared/practice-days'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import { api } from '@/client/lib/api'
import { languageName } from '@/client/lib/language-names'
import { currentUser } from '@/client/lib/auth'

/**
 * The learner's day of practice (docs/product.md §11): today's counts, the streak and the calendar
 * (the dashboard's "Today" card), and the settings ("Practice" on /account). Under `me`: one's own
 * data, read again on the live `practice` event (a grade or a save in another tab).
 */
export const practiceTodayKey = ['me', 'practice', 'today'] as const
export const practiceSettingsKey = ['me', 'practice', 'settings'] as const

export const practiceTodayQuery = () =>
  queryOptions({
    queryKey: practiceTodayKey,
    queryFn: ({ signal }) => api<PracticeToday>('/me/practice/today', { signal }),
  })

export const practiceSettingsQuery = () =>
  queryOptions({
    queryKey: practiceSettingsKey,
    queryFn: ({ signal }) => api<PracticeSettings>('/me/practice/settings', { signal }),
  })

export const savePracticeSettings = (input: PracticeSettingsInput) =>
  api<PracticeSettings>('/me/practice/settings', { method: 'PUT', json: input })

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
  const queryClient = useQueryClient()
  const user = useStore(currentUser)
  const settings = useQuery(practiceSettingsQuery())
  const stored = settings.data
  useEffect(() => {
    const zone = browserTimeZone()
    // Per person: someone else signing in on this page load has their own settings.
    if (!user || zoneSentFor.has(user.id) || !stored || !zone || sameTimeZone(zone, stored.timeZone)) return
    zoneSentFor.add(user.id)
    savePracticeSettings({ ...stored, timeZone: zone }).then(
      (saved) => {
        queryClient.setQueryData(practiceSettingsKey, saved)
        void queryClient.invalidateQueries({ queryKey: practiceTodayKey })
      },
      // Not worth a word to the learner: their day stays the stored zone's until the next load.
      () => undefined,
    )
  }, [user, stored, queryClient])
}

import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { Deck, DeckList, DeckWord, DeckWordPage, DeckWordSort } from '@/shared/decks'
import { IMPORTS_PATH, type ImportJob } from '@/shared/imports'
import type { WordImportResult } from '@/shared/words'
// Types only: the schemas stay out of the pages until a form is validated.
import type { DeckWordInput } from '@/shared/decks-schemas'
import { usePracticeCache } from '@/client/api/practice-progress'
import { api, apiPostFile, searchOf } from '@/client/lib/api'
import { runtimeConfig } from '@/client/lib/runtime-config'

/**
 * The learner's own decks and their words (docs/product.md §12), as React Query options and plain
 * writes; what the writes make stale is `useDecksCache`.
 */

export interface DeckWordListParams {
  q?: string
  sort?: DeckWordSort
  dir?: 'asc' | 'desc'
  page?: number
  pageSize?: number
}

const all = ['decks'] as const
const deckKeys = {
  all,
  list: [...all, 'list'] as const,
  detail: (id: number) => [...all, 'detail', id] as const,
  words: (id: number, params: DeckWordListParams) => [...all, 'detail', id, 'words', params] as const,
  imports: [...all, 'imports'] as const,
  import: (id: string) => [...all, 'imports', id] as const,
}

/**
 * One's own: every change of one's decks and practice (a grade moves a card's due day and the
 * counts; a deck written in another tab, an import) publishes `practice`; an account event may be
 * another person signed in here.
 */
const ownDecks = { practice: true, account: true } as const

/** The course words of the current level and the decks, with their counts: `/decks`. */
export const deckListQuery = () =>
  queryOptions({
    queryKey: deckKeys.list,
    queryFn: ({ signal }) => api<DeckList>('/me/decks', { signal }),
    // The course row also follows the level chosen, and that level's words.
    meta: { live: { ...ownDecks, levels: true, words: true } },
  })

export const deckQuery = (id: number) =>
  queryOptions({
    queryKey: deckKeys.detail(id),
    queryFn: ({ signal }) => api<Deck>(`/me/decks/${id}`, { signal }),
    meta: { live: ownDecks },
  })

/** One page of a deck's words: the deck page's table. */
export const deckWordsQuery = (id: number, params: DeckWordListParams) =>
  queryOptions({
    queryKey: deckKeys.words(id, params),
    queryFn: ({ signal }) => api<DeckWordPage>(`/me/decks/${id}/words?${searchOf(params)}`, { signal }),
    meta: { live: ownDecks },
  })

/** Whether an import is still to end (queued or running). */
export const importRunning = (job: Pick<ImportJob, 'status'>) => job.status === 'queued' || job.status === 'running'

/**
 * While an import runs its reads are also polled (every 1.5 s): the live stream says when a job
 * moves, but it may be down. The path is the shared one (`/api/me/imports`) under the API's base.
 */
const POLL_MS = 1500
const importsPath = IMPORTS_PATH.replace(/^\/api/, '')
/** A job moved (queued, progress, done or failed): the learner's own `practice` event, reason `import`. */
const importLive = { practice: (data: { reason: string }) => data.reason === 'import', account: true } as const

/** The learner's latest imports (20, newest first): the line on `/decks` of those running or just ended. */
export const importsQuery = () =>
  queryOptions({
    queryKey: deckKeys.imports,
    queryFn: ({ signal }) => api<ImportJob[]>(importsPath, { signal }),
    refetchInterval: (query) => (query.state.data?.some(importRunning) ? POLL_MS : false),
    meta: { live: importLive },
  })

/** One import, followed until it ends: the import dialog. */
export const importQuery = (id: string) =>
  queryOptions({
    queryKey: deckKeys.import(id),
    queryFn: ({ signal }) => api<ImportJob>(`${importsPath}/${id}`, { signal }),
    refetchInterval: (query) => (!query.state.data || importRunning(query.state.data) ? POLL_MS : false),
    meta: { live: importLive },
  })

/** What the deck form sends (the shared input schema's shape). */
export interface DeckValues {
  name: string
  language: string
  description: string | null
  practiseDaily: boolean
}

export const decksApi = {
  create: (input: DeckValues) => api<Deck>('/me/decks', { method: 'POST', json: input }),
  update: (id: number, patch: DeckValues & { version: number }) =>
    api<Deck>(`/me/decks/${id}`, { method: 'PATCH', json: patch }),
  remove: (id: number) => api<undefined>(`/me/decks/${id}`, { method: 'DELETE' }),
  addWord: (deckId: number, input: DeckWordInput) =>
    api<DeckWord>(`/me/decks/${deckId}/words`, { method: 'POST', json: input }),
  updateWord: (deckId: number, wordId: number, input: DeckWordInput) =>
    api<DeckWord>(`/me/decks/${deckId}/words/${wordId}`, { method: 'PUT', json: input }),
  removeWord: (deckId: number, wordId: number) =>
    api<undefined>(`/me/decks/${deckId}/words/${wordId}`, { method: 'DELETE' }),
  /**
   * Starts an import (`202 {id}`): the file, and for a CSV file the deck it goes into, for a package
   * the language of the decks it makes.
   */
  startImport: (file: File, options: { deckId?: number; language?: string }) => {
    const form = new FormData()
    if (options.deckId !== undefined) form.append('deckId', String(options.deckId))
    if (options.language) form.append('language', options.language)
    form.append('file', file, file.name)
    return api<{ id: string }>(importsPath, { method: 'POST', body: form })
  },
  /**
   * Checks a CSV file for a deck (a dry run, writing nothing): what it would add, change and leave
   * unchanged, and every row the import would skip.
   */
  checkCsv: (deckId: number, file: File) => apiPostFile<WordImportResult>(`/me/decks/${deckId}/words/csv`, file, 'text/csv'),
}

/** A deck's file (`csv`, or `apkg`: an Anki package); a plain link downloads it with the session cookie. */
export const deckExportUrl = (id: number, kind: 'csv' | 'apkg') => `${runtimeConfig().apiBaseUrl}/me/decks/${id}/export.${kind}`

/** What the writes of decks and their words do to the cached reads (the same functions every render). */
export function useDecksCache() {
  const client = useQueryClient()
  const { todayChanged } = usePracticeCache()
  return useMemo(
    () => ({
      /**
       * Every read of decks, read again after a write; today's counts too (a deck's cards join the
       * daily practice). The live `practice` event does so in the other tabs.
       */
      refresh: async () => {
        todayChanged()
        await client.invalidateQueries({ queryKey: deckKeys.all })
      },
      /** The deck as saved is the one shown. */
      saved: (deck: Deck) => client.setQueryData(deckKeys.detail(deck.id), deck),
      /** A deck as the server has it now (a stale form's Reload). */
      current: (id: number) => client.fetchQuery({ ...deckQuery(id), staleTime: 0 }),
      /** A deleted deck's reads go, so that nothing asks for them again. */
      forget: (id: number) => client.removeQueries({ queryKey: deckKeys.detail(id) }),
    }),
    [client, todayChanged],
  )
}

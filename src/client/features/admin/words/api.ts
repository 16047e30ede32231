import { queryOptions, useQueryClient } from '@tanstack/react-query'
import type { Word, WordImportResult, WordPage } from '@/shared/words'
import { api, apiPostFile, searchOf } from '@/client/lib/api'
import { runtimeConfig } from '@/client/lib/runtime-config'

/** The admin's word endpoints, as React Query options and plain writes. */

export interface WordListParams {
  q?: string
  page?: number
  pageSize?: number
}

/** Every read of words starts with `words`: one invalidation after a write refreshes them all. */
const all = ['words'] as const
const wordKeys = {
  all,
  list: (levelId: number, params: WordListParams) => [...all, levelId, 'list', params] as const,
}

/** One page of a level's words: the "Words" table. */
export const wordListQuery = (levelId: number, params: WordListParams) =>
  queryOptions({
    queryKey: wordKeys.list(levelId, params),
    queryFn: ({ signal }) => api<WordPage>(`/language-levels/${levelId}/words?${searchOf(params)}`, { signal }),
    // Another administrator's change.
    meta: { live: { words: true } },
  })

/** What the writes of words do to the cached reads. */
export function useWordsCache() {
  const client = useQueryClient()
  return {
    /** Every read of words, read again after a write. */
    refresh: () => client.invalidateQueries({ queryKey: wordKeys.all }),
    /** A page of a level's words as it is now, from the server (a form's Reload). */
    current: (levelId: number, params: WordListParams) =>
      client.fetchQuery({ ...wordListQuery(levelId, params), staleTime: 0 }),
  }
}

/** What the word form sends (the shared input schema's shape). */
export interface WordValues {
  language: Word['language']
  text: string
  translationEn: string
  translationRu: string
  example: string | null
  partOfSpeech: Word['partOfSpeech']
}

/**
 * The level's words file, at `…/csv` as every CSV file of the API (shared/csv.ts, not imported
 * here: its schema would bring zod to the level's page).
 */
const wordsFilePath = (levelId: number) => `/language-levels/${levelId}/words/csv`

/** A plain link downloads the file (the session cookie goes with it). */
export const wordsFileUrl = (levelId: number) => `${runtimeConfig().apiBaseUrl}${wordsFilePath(levelId)}`

export const wordsApi = {
  create: (levelId: number, input: WordValues) =>
    api<Word>(`/language-levels/${levelId}/words`, { method: 'POST', json: input }),
  update: (id: number, patch: WordValues & { version: number }) =>
    api<Word>(`/words/${id}`, { method: 'PATCH', json: patch }),
  remove: (id: number) => api<undefined>(`/words/${id}`, { method: 'DELETE' }),
  /** The file as it is (`type`: the media type it is sent as); `dryRun` checks it and writes nothing. */
  importFile: (levelId: number, file: Blob, type: string, dryRun: boolean) =>
    apiPostFile<WordImportResult>(`${wordsFilePath(levelId)}${dryRun ? '?dryRun=true' : ''}`, file, type),
}

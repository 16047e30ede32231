import { queryOptions, useQueryClient } from '@tanstack/react-query'
import type { CanDoStatement, CanDoStatementList, CsvImportReport, Skill } from '@/shared/can-do'
// Types only: the schemas stay out of the page until a form is validated.
import type { StatementInput, StatementPatch } from '@/shared/can-do-schemas'
import { api, apiPostFile, searchOf } from '@/client/lib/api'

/** The administrators' can-do statement endpoints, as React Query options and plain writes. */

export interface StatementListParams {
  levelId?: number
  skill?: Skill
  q?: string
}

const base = '/admin/can-do-statements'

/** Every list shares the `can-do` key prefix: one invalidation after a write refreshes them all. */
const all = ['can-do'] as const
const listKey = (params: StatementListParams) => [...all, params] as const

/** The statements matching the filters, in level, skill and position order (no pages). */
export const statementListQuery = (params: StatementListParams) =>
  queryOptions({
    queryKey: listKey(params),
    queryFn: ({ signal }) => api<CanDoStatementList>(`${base}?${searchOf(params)}`, { signal }),
    // Another administrator's change (a second tab follows too).
    meta: { live: { 'can-do': true } },
  })

/** What the writes of statements do to the cached reads. */
export function useStatementsCache() {
  const client = useQueryClient()
  return {
    /** Every list of statements, read again after a write. */
    refresh: () => client.invalidateQueries({ queryKey: all }),
    /** The statements matching `params` as they are now, from the server (a form's Reload). */
    current: (params: StatementListParams) => client.fetchQuery({ ...statementListQuery(params), staleTime: 0 }),
    /** A cell's new order shown at once, before the server has it (a reply still on its way is dropped). */
    reorder: (params: StatementListParams, reordered: (list: CanDoStatementList) => CanDoStatementList) => {
      void client.cancelQueries({ queryKey: listKey(params) })
      client.setQueryData(listKey(params), (old: CanDoStatementList | undefined) => old && reordered(old))
    },
  }
}

/** The path of the CSV file of every statement (GET downloads it, POST imports one). */
export const csvPath = `${base}/csv`

export const statementsApi = {
  create: (input: StatementInput) => api<CanDoStatement>(base, { method: 'POST', json: input }),
  update: (id: number, patch: StatementPatch) =>
    api<CanDoStatement>(`${base}/${id}`, { method: 'PATCH', json: patch }),
  remove: (id: number) => api<undefined>(`${base}/${id}`, { method: 'DELETE' }),
  reorder: (levelId: number, skill: Skill, ids: number[]) =>
    api<CanDoStatement[]>(`${base}/order`, { method: 'PUT', json: { levelId, skill, ids } }),
  /** The file as it is; `dryRun` checks it and writes nothing. */
  importCsv: (file: Blob, type: string, dryRun: boolean) =>
    apiPostFile<CsvImportReport>(`${csvPath}${dryRun ? '?dryRun=true' : ''}`, file, type),
}

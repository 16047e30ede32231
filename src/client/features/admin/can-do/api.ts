import { queryOptions } from '@tanstack/react-query'
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

/**
 * Under the `can-do` prefix: a `can-do` live event (any administrator's change) makes every read
 * of statements stale (lib/query-client.tsx), so a second tab follows.
 */
export const canDoKeys = {
  all: ['can-do'] as const,
  list: (params: StatementListParams) => ['can-do', 'admin', params] as const,
}

/** The statements matching the filters, in level, skill and position order (no pages). */
export const statementListQuery = (params: StatementListParams) =>
  queryOptions({
    queryKey: canDoKeys.list(params),
    queryFn: ({ signal }) => api<CanDoStatementList>(`${base}?${searchOf(params)}`, { signal }),
  })

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

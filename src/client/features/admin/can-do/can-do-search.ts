import { SKILLS, type Skill } from '@/shared/can-do'
import { LEVEL_QUERY_MAX } from '@/shared/levels'
import { oneOf, pageParam, textParam } from '@/client/components/data-table/search-state'

/**
 * The statements page's filters in the URL: `?level=3&skill=reading&q=letter`. Read by the route's
 * `validateSearch`, so it stays free of zod: any value that is not valid is left out ("any").
 */
export interface CanDoSearch {
  q: string
  /** A level's id. */
  level?: number
  skill?: Skill
}

export const QUERY_MAX = LEVEL_QUERY_MAX

export const canDoSearchDefaults = { q: '' } satisfies CanDoSearch

export function validateCanDoSearch(search: Record<string, unknown>): CanDoSearch {
  return {
    q: textParam(search.q, QUERY_MAX),
    level: pageParam(search.level),
    skill: oneOf(SKILLS, search.skill),
  }
}

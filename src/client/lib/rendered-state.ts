import type { LanguageLevel } from '@/shared/levels'
import { RENDERED_STATE_ID, type RenderedState } from '@/shared/rendered-state'

export type { RenderedState } from '@/shared/rendered-state'

/** The page's rendered state; undefined for the app shell (a signed-in visit, a guarded page). */
export function readRenderedState(): RenderedState | undefined {
  const element = document.getElementById(RENDERED_STATE_ID)
  if (!element?.textContent) return undefined
  try {
    return JSON.parse(element.textContent) as RenderedState
  } catch {
    return undefined
  }
}

/** A promise React's `use` reads at once (no suspending): data the page was rendered with. */
function settled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value })
}

let seeded: LanguageLevel[] | undefined

/** The levels the page is rendered with: read once by the home page's loader, instead of the API. */
export function seedLevels(levels: LanguageLevel[] | undefined) {
  seeded = levels
}

export function takeSeededLevels(): Promise<LanguageLevel[]> | undefined {
  const levels = seeded
  seeded = undefined
  return levels ? settled(levels) : undefined
}

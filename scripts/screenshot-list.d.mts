export interface Screenshot {
  /** The file's name: docs/screenshots/{name}-{mode}.png. */
  name: string
  path: string
  /** Who looks at the page. */
  as: 'visitor' | 'learner' | 'admin'
  /** How the README names it. */
  title?: string
  /** The HTTP status the page answers, when not 200. */
  status?: number
}
export const SCREENSHOT_MODES: readonly ['light', 'dark']
export const SCREENSHOTS: readonly (Screenshot & { title: string })[]
export const ALL_PAGES: readonly Screenshot[]

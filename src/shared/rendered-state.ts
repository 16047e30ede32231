import type { ClientConfig } from './client-config'
import type { LanguageLevel } from './levels'
import type { Language, ThemePreference } from './preferences'

/**
 * What the server rendered a page with (src/client/entry-server.tsx), written into the page as
 * JSON (a data block, not a script: the CSP has nothing to allow) so that the browser's first
 * render, which hydrates that HTML, is the same: the visitor's language and colour mode, the
 * runtime configuration, and the data the page showed.
 */
export interface RenderedState {
  language: Language
  theme: ThemePreference
  config: ClientConfig
  /** The home page's levels, in their order. */
  levels?: LanguageLevel[]
}

/** The id of the `<script type="application/json">` element that holds it. */
export const RENDERED_STATE_ID = 'lingua-state'

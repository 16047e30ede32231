import type { LocalizedMessage } from '@/client/lib/http-error'

/**
 * What the error screen and the fallbacks that load it (fallbacks.tsx, in the start chunk) share:
 * the screen itself is a chunk of its own, loaded only when an error happens.
 */

/** The error screen's heading, also how a page the server rendered shows that it is that screen. */
export const ERROR_HEADING_ID = 'error-heading'

export interface ErrorScreenProps {
  status: number
  message?: string
  localized?: LocalizedMessage
  /** What was thrown: a failed request is told in the interface language, not the server's English. */
  error?: unknown
}

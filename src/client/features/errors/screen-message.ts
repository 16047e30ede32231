import type { LocalizedMessage } from '@/client/lib/http-error'
import type { errorMessages } from './messages'

type Messages = ReturnType<typeof errorMessages.get>

/** The error screen's text: the localized message, else the message, else "unknown error". */
export function screenMessage(
  error: { message?: string; localized?: LocalizedMessage },
  t: Messages,
): string {
  const localized = error.localized
  if (localized) {
    return 'path' in localized ? t[localized.key]({ path: localized.path }) : t[localized.key]
  }
  return error.message?.trim() ? error.message : t.unknown
}

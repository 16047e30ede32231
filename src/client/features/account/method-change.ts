import { useStore } from '@nanostores/react'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError, isSessionNotFresh } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { accountMessages } from './messages'

/** After a sign-in method changed: says so (`status`, read out) and reads the methods again. */
export type MethodChanged = (status: string) => Promise<void>

/**
 * Why removing a sign-in method failed. The server refuses to remove the last one with 409
 * `conflict`, whose generic sentence ("Someone else changed this…") would be wrong here; unlinking
 * a provider wants a recent sign-in.
 */
export function useRemovalFailure(): (error: unknown) => string {
  const t = useStore(accountMessages)
  const errorTexts = useStore(apiErrorMessages)
  return (error) => {
    if (error instanceof ApiRequestError && error.status === 409) return t.lastMethodRefused
    if (isSessionNotFresh(error)) return t.signInAgainToChange
    return errorMessage(error, errorTexts)
  }
}

/**
 * The heading of a group of methods: focus goes to it when the button that had focus went away
 * with what it removed, underlined in the focus colour as the page heading is.
 */
export const subheadingClass =
  'font-semibold outline-hidden focus-visible:underline focus-visible:decoration-ring focus-visible:decoration-3 focus-visible:underline-offset-[0.2em]'

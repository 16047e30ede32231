import { Link } from '@tanstack/react-router'
import { refreshSession } from '@/client/lib/auth'
import type { SignInAnswer } from '@/client/lib/auth-api'
import { authLinkClass } from './auth-card'

export type SignInMethod = 'password' | 'code' | 'recovery'

/**
 * After the first factor: either the second one is asked for, or the session is read again. The
 * `guest` guard then leaves `/login` for `?redirect=` (or the dashboard).
 */
export async function afterFirstFactor(answer: SignInAnswer, askSecondFactor: () => void) {
  if (answer.twoFactorRedirect) askSecondFactor()
  else await refreshSession('SIGNED_IN')
}

/** The search of a link between `/login` and `/register`: where to go once signed in stays. */
export const keepRedirect = (previous: { redirect?: string }) => ({ redirect: previous.redirect })

/**
 * A link to another way of signing in, keeping `?redirect=`; `onIntent` runs when it is pointed at
 * or focused (the code of a step of `/login` starts loading).
 */
export function MethodLink({
  method,
  children,
  onIntent,
}: {
  method: SignInMethod
  children: string
  onIntent?: () => void
}) {
  return (
    <Link
      onPointerEnter={onIntent}
      onFocus={onIntent}
      to="/login"
      search={(previous) => ({
        ...previous,
        method: method === 'password' ? undefined : method,
      })}
      className={authLinkClass}
    >
      {children}
    </Link>
  )
}

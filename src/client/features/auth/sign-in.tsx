import { Link } from '@tanstack/react-router'
import { refreshSession } from '@/client/lib/auth'
import type { SignInAnswer } from '@/client/lib/auth-api'
import { authLinkClass } from './auth-card'
import { preloadSignInStep } from './sign-in-steps'

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

/** A link to another way of signing in, keeping `?redirect=`; its step's code loads on intent. */
export function MethodLink({ method, children }: { method: SignInMethod; children: string }) {
  const preload = method === 'password' ? undefined : () => preloadSignInStep(method)
  return (
    <Link
      onPointerEnter={preload}
      onFocus={preload}
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

import { useStore } from '@nanostores/react'
import { useEffect, useEffectEvent, useState } from 'react'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { KeyIcon } from '@/client/components/ui/icons'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { PasskeyError, passkeyAutofillAvailable, signInWithPasskey, usePasskeysSupported } from '@/client/lib/passkeys'
import { useAction } from '@/client/lib/use-action'
import { authMessages } from './messages'
import { afterFirstFactor } from './sign-in'

/**
 * "Sign in with a passkey", and with `autofill` the passkeys offered among the suggestions of the
 * email field (`autocomplete="username webauthn"` on it): that request waits from the moment the
 * page shows until one is picked, and stops when the page goes. Nothing without WebAuthn.
 */
export function PasskeySignIn({
  askSecondFactor,
  autofill = false,
}: {
  askSecondFactor: () => void
  autofill?: boolean
}) {
  const t = useStore(authMessages)
  const errorTexts = useStore(apiErrorMessages)
  const supported = usePasskeysSupported()
  const [failure, setFailure] = useState<unknown>(null)
  // The button's request replaces the waiting one (a browser runs one at a time): once it failed,
  // a new round waits again. Nothing else starts one: an authenticator that answers by itself (a
  // test's virtual one) would otherwise go round and round.
  const [round, setRound] = useState(0)
  const signedIn = useEffectEvent((answer: Awaited<ReturnType<typeof signInWithPasskey>>) =>
    afterFirstFactor(answer, askSecondFactor),
  )
  const button = useAction(() => signInWithPasskey(), {
    onMutate: () => setFailure(null),
    onSuccess: (answer) => afterFirstFactor(answer, askSecondFactor),
    onError: (error) => {
      setFailure(error)
      setRound((previous) => previous + 1)
    },
  })

  useEffect(() => {
    if (!autofill) return
    const controller = new AbortController()
    const { signal } = controller
    void (async () => {
      if (!(await passkeyAutofillAvailable()) || signal.aborted) return
      try {
        await signedIn(await signInWithPasskey({ autofill: true, signal }))
      } catch (error) {
        // Said only once a passkey was picked and the server refused it (a disabled account's
        // too). Anything else happened without the person doing anything (the page left, the
        // button took over, the browser refused this address, the challenge could not be
        // fetched): the button still works.
        const refused =
          (error instanceof PasskeyError && ['notRegistered', 'notCompleted'].includes(error.reason)) ||
          (error instanceof ApiRequestError && error.code === 'account_disabled')
        if (refused && !signal.aborted) setFailure(error)
      }
    })()
    return () => controller.abort()
  }, [autofill, round])

  if (!supported) return null
  const reason = failure instanceof PasskeyError ? failure.reason : undefined
  const failureText =
    reason === 'notRegistered'
      ? t.passkeyNotRegistered
      : reason === 'notCompleted'
        ? t.passkeyNotCompleted
        : reason === 'browser' || reason === 'alreadyRegistered'
          ? t.passkeyBrowserFailed
          : failure && !reason
            ? errorMessage(failure, errorTexts)
            : undefined

  return (
    <div className="grid">
      <Button variant="outline" disabled={button.isPending} onClick={() => button.mutate()}>
        <KeyIcon />
        {button.isPending ? t.waitingForPasskey : t.signInWithPasskey}
      </Button>
      {/* Closing the browser's dialog is no failure: said quietly, in a region present from the start. */}
      <p role="status" className="mt-2 text-center text-sm text-muted-foreground empty:mt-0">
        {reason === 'cancelled' ? t.passkeyCancelled : ''}
      </p>
      {failureText && (
        <Alert variant="error" className="mt-2">
          {failureText}
        </Alert>
      )}
    </div>
  )
}

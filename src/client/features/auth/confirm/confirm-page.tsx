import { useStore } from '@nanostores/react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { NewPasswordValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { NewPasswordFields } from '@/client/components/forms/new-password-fields'
import { Alert } from '@/client/components/ui/alert'
import { Button, buttonClass } from '@/client/components/ui/button'
import { announce, refreshSession } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { errorMessage } from '@/client/lib/error-message'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { withReadRetries } from '@/client/lib/retry'
import { toast } from '@/client/lib/toast'
import { useAction } from '@/client/lib/use-action'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from '@/client/features/auth/auth-card'
import { CheckEmail } from '@/client/features/auth/check-email'
import { EmailForm } from '@/client/features/auth/email-form'
import { confirmMessages } from './messages'
import { authMessages } from '@/client/features/auth/messages'

/** The kinds of emailed links (`/confirm?type=…&token=…`, written by the server's auth module). */
export type LinkType = 'signup' | 'recovery' | 'email_change'

/** A link the server refused (as opposed to a server or network failure, worth retrying). */
const isRefusedLink = (error: unknown) =>
  error instanceof ApiRequestError && error.status >= 400 && error.status < 500

/** `/confirm`: lands every emailed link. */
export function ConfirmPage({ type, token }: { type: LinkType; token?: string }) {
  if (!token) return <NoToken />
  if (type === 'recovery') return <NewPassword token={token} />
  return <VerifyEmail token={token} emailChange={type === 'email_change'} />
}

function NoToken() {
  const t = useStore(authMessages)
  const c = useStore(confirmMessages)
  return (
    <AuthCard title={c.noTokenTitle} lead={c.noToken}>
      <ul className="grid gap-2">
        <li>
          <Link to="/login" className={authLinkClass}>
            {t.signIn}
          </Link>
        </li>
        <li>
          <Link to="/register" className={authLinkClass}>
            {t.createAnAccount}
          </Link>
        </li>
        <li>
          <Link to="/login" search={{ method: 'recovery' }} className={authLinkClass}>
            {t.forgotPassword}
          </Link>
        </li>
      </ul>
    </AuthCard>
  )
}

/**
 * The check of each link, once for the page's life: a token works once, so a second render or a
 * second mount (StrictMode) gets the same answer instead of checking it again. Up to three
 * attempts while the server or the network fails; a failed check is forgotten, so that "Try
 * again" checks afresh.
 */
const verifications = new Map<string, ReturnType<typeof refreshSession>>()
function verifyOnce(token: string, emailChange: boolean) {
  let verification = verifications.get(token)
  if (!verification) {
    verification = withReadRetries(
      async () => {
        await authApi.verifyEmail(token)
        return refreshSession(emailChange ? 'USER_UPDATED' : 'SIGNED_IN')
      },
      (failures, error) => !isRefusedLink(error) && failures < 2,
    )
    verifications.set(token, verification)
    verification.catch(() => verifications.delete(token))
  }
  return verification
}

/** Sign-up confirmation and email change: the link is checked once, then the session is read. */
function VerifyEmail({ token, emailChange }: { token: string; emailChange: boolean }) {
  const t = useStore(authMessages)
  const c = useStore(confirmMessages)
  const errorTexts = useStore(apiErrorMessages)
  const navigate = useNavigate()
  // A write that changes nothing in the query cache: the page loads none of it.
  const verification = useAction(() => verifyOnce(token, emailChange))
  const { mutate: verify } = verification
  useEffect(() => verify(), [verify, token])
  const user = verification.data

  useEffect(() => {
    if (!user) return
    if (emailChange) {
      toast({ title: c.emailChangedTitle, description: c.emailChanged({ email: user.email }), variant: 'success' })
      void navigate({ to: '/account', replace: true })
    } else {
      toast({ title: c.confirmedTitle, description: c.confirmedSignedIn, variant: 'success' })
      void navigate({ to: '/dashboard', replace: true })
    }
    // Once per confirmed link; the texts are read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user])

  if (verification.status === 'idle' || verification.isPending || user) {
    return (
      <AuthCard title={c.confirmTitle}>
        <p role="status" className="flex items-center gap-3">
          <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-primary border-t-transparent" />
          {c.confirming}
        </p>
      </AuthCard>
    )
  }
  if (verification.isSuccess) {
    // The link worked before: the address is confirmed, but this browser is not signed in.
    return (
      <AuthCard title={c.confirmedTitle} lead={c.alreadyConfirmed}>
        <Link to="/login" className={buttonClass()}>{t.signIn}</Link>
      </AuthCard>
    )
  }
  if (!isRefusedLink(verification.error)) {
    return (
      <AuthCard title={c.confirmTitle}>
        <Alert variant="error">{errorMessage(verification.error, errorTexts)}</Alert>
        <Button onClick={() => verification.mutate()}>{c.tryAgain}</Button>
      </AuthCard>
    )
  }
  if (emailChange) {
    return (
      <AuthCard title={c.invalidLinkTitle} lead={c.invalidEmailChange}>
        <Link to="/account" className={buttonClass()}>{c.openAccount}</Link>
      </AuthCard>
    )
  }
  return <InvalidLink resend={authApi.resendVerification} sentMessage={t.signUpSent} />
}

/** An invalid or expired link, with a form to have a new one sent. */
function InvalidLink({
  resend,
  sentMessage,
}: {
  resend: (email: string) => Promise<unknown>
  sentMessage: (values: { email: string }) => string
}) {
  const t = useStore(authMessages)
  const c = useStore(confirmMessages)
  const [sentTo, setSentTo] = useState<string | null>(null)
  if (sentTo) {
    return (
      <AuthCard title={t.checkEmailTitle}>
        <CheckEmail message={sentMessage({ email: sentTo })} resend={() => resend(sentTo)} onChangeEmail={() => setSentTo(null)} />
      </AuthCard>
    )
  }
  return (
    <AuthCard title={c.invalidLinkTitle} lead={c.invalidLink}>
      <EmailForm submitLabel={c.sendNewLink} pendingLabel={t.sendingLink} send={resend} onSent={setSentTo} />
    </AuthCard>
  )
}

/** Password recovery: a new password for the account the link was sent to. */
function NewPassword({ token }: { token: string }) {
  const t = useStore(authMessages)
  const c = useStore(confirmMessages)
  const form = useForm<NewPasswordValues>({
    resolver: formResolver(authSchema('newPasswordSchema')),
    defaultValues: { password: '', confirmPassword: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ password }) =>
    authApi.resetPassword(token, password),
  )
  useEffect(() => announce('PASSWORD_RECOVERY'), [])

  if (mutation.error instanceof ApiRequestError && mutation.error.code === 'invalid_token') {
    return <InvalidLink resend={authApi.requestPasswordReset} sentMessage={t.recoverySent} />
  }
  if (mutation.isSuccess) {
    return (
      <AuthCard title={c.passwordChangedTitle} lead={c.passwordChanged}>
        <Link to="/login" className={buttonClass()}>{t.signIn}</Link>
      </AuthCard>
    )
  }
  return (
    <AuthCard title={c.newPasswordTitle} lead={c.newPasswordLead}>
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <NewPasswordFields form={form} passwordLabel={t.newPassword} confirmLabel={t.confirmPassword} />
        <FormSubmit
          label={c.setPassword}
          pendingLabel={c.settingPassword}
          pending={mutation.isPending}
          error={errorText}
          stretch
        />
      </form>
    </AuthCard>
  )
}

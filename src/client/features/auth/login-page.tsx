import { useStore } from '@nanostores/react'
import { Link, useNavigate } from '@tanstack/react-router'
import { type ReactNode, Suspense, lazy, startTransition, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { SignInValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Field, Input } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from './auth-card'
import { authMessages } from './messages'
import { PasskeySignIn } from './passkey-sign-in'
import { ProviderSignIn } from './provider-sign-in'
import { MethodLink, type SignInMethod, afterFirstFactor, keepRedirect } from './sign-in'
import { CodeSignIn, RecoveryRequest, SecondFactor } from './sign-in-steps'

// Only a provider's failed return (`?error=`) shows it.
const ProviderErrorAlert = lazy(async () => ({
  default: (await import('@/client/components/sign-in/provider-error-alert')).ProviderErrorAlert,
}))

/**
 * `/login`: password, emailed code or recovery (`?method=`), a passkey or a provider, then the
 * second factor if on. A provider sends the browser back here with `?error=` when it failed
 * (`providerError`), or with `?step=second-factor` when the account asks for its second factor.
 */
export function LoginPage({
  method,
  providerError,
  step,
}: {
  method: SignInMethod
  providerError?: string
  step?: 'second-factor'
}) {
  // The steps other than the password form are lazy (sign-in-steps.tsx): the server's HTML of one
  // stays on screen until its code has loaded.
  return (
    <Suspense>
      <LoginStep method={method} providerError={providerError} step={step} />
    </Suspense>
  )
}

function LoginStep({ method, providerError, step }: Parameters<typeof LoginPage>[0]) {
  const navigate = useNavigate()
  const [secondFactor, setSecondFactor] = useState(false)
  // In a transition: the form stays on screen while the second factor's code loads.
  const askSecondFactor = () => startTransition(() => setSecondFactor(true))
  if (secondFactor || step === 'second-factor') {
    const cancel = () => {
      setSecondFactor(false)
      if (step) void navigate({ to: '/login', search: ({ step: _, ...rest }) => rest, replace: true })
    }
    return <SecondFactor onCancel={cancel} />
  }
  const notice = providerError && <ProviderErrorAlert code={providerError} />
  if (method === 'code') return <CodeSignIn askSecondFactor={askSecondFactor} notice={notice} />
  if (method === 'recovery') return <RecoveryRequest />
  return <PasswordSignIn askSecondFactor={askSecondFactor} notice={notice} />
}

function PasswordSignIn({ askSecondFactor, notice }: { askSecondFactor: () => void; notice?: ReactNode }) {
  const t = useStore(authMessages)
  const form = useForm<SignInValues>({
    resolver: formResolver(authSchema('signInSchema')),
    defaultValues: { email: '', password: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, authApi.signIn, {
    onSuccess: (answer) => afterFirstFactor(answer, askSecondFactor),
  })
  const { errors } = form.formState

  return (
    <AuthCard
      title={t.signInTitle}
      lead={t.signInLead}
      footer={
        <>
          <MethodLink method="code">{t.signInWithCode}</MethodLink>
          <p>
            {t.noAccount}{' '}
            <Link to="/register" search={keepRedirect} className={authLinkClass}>
              {t.createAnAccount}
            </Link>
          </p>
        </>
      }
    >
      {notice}
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.email} error={errors.email?.message}>
          {(control) => (
            <Input
              {...control}
              type="email"
              // `webauthn`: the browser offers passkeys among its suggestions (PasskeySignIn).
              autoComplete="username webauthn"
              {...form.register('email')}
            />
          )}
        </Field>
        <Field label={t.password} error={errors.password?.message}>
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete="current-password"
              {...form.register('password')}
            />
          )}
        </Field>
        <div className="-mt-2 text-right text-sm">
          <MethodLink method="recovery">{t.forgotPassword}</MethodLink>
        </div>
        <FormSubmit
          label={t.signIn}
          pendingLabel={t.signingIn}
          pending={mutation.isPending}
          error={errorText}
          stretch
        />
      </form>
      <PasskeySignIn askSecondFactor={askSecondFactor} autofill />
      <ProviderSignIn />
    </AuthCard>
  )
}

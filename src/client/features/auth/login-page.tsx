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

/**
 * The steps of `/login` besides the password form — the emailed code, recovery and the second
 * factor — load when chosen, not with the page most visitors use only for its password form. A
 * link to one starts loading it when pointed at or focused (`preloadSignInStep`).
 */
const loaders = {
  code: () => import('./code-sign-in'),
  recovery: () => import('./recovery-request'),
  secondFactor: () => import('./second-factor'),
}

const CodeSignIn = lazy(async () => ({ default: (await loaders.code()).CodeSignIn }))
const RecoveryRequest = lazy(async () => ({ default: (await loaders.recovery()).RecoveryRequest }))
const SecondFactor = lazy(async () => ({ default: (await loaders.secondFactor()).SecondFactor }))

/** Starts loading a step's code ahead of its use; a failure shows when the step renders. */
function preloadSignInStep(step: keyof typeof loaders) {
  loaders[step]().catch(() => undefined)
}

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
  // The steps other than the password form are lazy (`loaders`): the server's HTML of one
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
          <MethodLink method="code" onIntent={() => preloadSignInStep('code')}>
            {t.signInWithCode}
          </MethodLink>
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
          <MethodLink method="recovery" onIntent={() => preloadSignInStep('recovery')}>
            {t.forgotPassword}
          </MethodLink>
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

import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { type SignInValues, signInSchema } from '@/shared/auth'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Field, Input } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { authApi } from '@/client/lib/auth-api'
import { formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from './auth-card'
import { CodeSignIn } from './code-sign-in'
import { authMessages } from './messages'
import { RecoveryRequest } from './recovery-request'
import { SecondFactor } from './second-factor'
import { MethodLink, type SignInMethod, afterFirstFactor } from './sign-in'

/** `/login`: password, emailed code or recovery (`?method=`), then the second factor if on. */
export function LoginPage({ method }: { method: SignInMethod }) {
  const [secondFactor, setSecondFactor] = useState(false)
  const askSecondFactor = () => setSecondFactor(true)
  if (secondFactor) return <SecondFactor onCancel={() => setSecondFactor(false)} />
  if (method === 'code') return <CodeSignIn askSecondFactor={askSecondFactor} />
  if (method === 'recovery') return <RecoveryRequest />
  return <PasswordSignIn askSecondFactor={askSecondFactor} />
}

function PasswordSignIn({ askSecondFactor }: { askSecondFactor: () => void }) {
  const t = useStore(authMessages)
  const form = useForm<SignInValues>({
    resolver: formResolver(signInSchema),
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
            <Link to="/register" className={authLinkClass}>
              {t.createAnAccount}
            </Link>
          </p>
        </>
      }
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.email} error={errors.email?.message}>
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="username"
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
    </AuthCard>
  )
}

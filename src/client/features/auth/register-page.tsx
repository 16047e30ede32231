import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { RegisterValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { NewPasswordFields } from '@/client/components/forms/new-password-fields'
import { Field, Input } from '@/client/components/ui/field'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from './auth-card'
import { CheckEmail } from './check-email'
import { authMessages } from './messages'
import { ProviderSignIn } from './provider-sign-in'
import { keepRedirect } from './sign-in'

export function RegisterPage() {
  const t = useStore(authMessages)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useForm<RegisterValues>({
    resolver: formResolver(authSchema('registerSchema')),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, authApi.signUp, {
    onSuccess: (_, values) => setSentTo(values.email),
  })
  const { errors } = form.formState

  if (sentTo) {
    return (
      <AuthCard title={t.checkEmailTitle}>
        <CheckEmail
          message={t.signUpSent({ email: sentTo })}
          resend={() => authApi.resendVerification(sentTo)}
          onChangeEmail={() => setSentTo(null)}
        />
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title={t.registerTitle}
      lead={t.registerLead}
      footer={
        <p>
          {t.haveAccount}{' '}
          <Link to="/login" search={keepRedirect} className={authLinkClass}>
            {t.signIn}
          </Link>
        </p>
      }
    >
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.name} error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" {...form.register('name')} />}
        </Field>
        <Field label={t.email} error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </Field>
        <NewPasswordFields form={form} passwordLabel={t.password} confirmLabel={t.confirmPassword} />
        <FormSubmit
          label={t.createAccount}
          pendingLabel={t.creatingAccount}
          pending={mutation.isPending}
          error={errorText}
          stretch
        />
      </form>
      <ProviderSignIn />
    </AuthCard>
  )
}

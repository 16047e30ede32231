import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { ChangePasswordValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { NewPasswordFields } from '@/client/components/forms/new-password-fields'
import { Field } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { useAccountCache } from './api'
import { accountMessages } from './messages'
import { Section } from './section'

/** A new password signs out every other device (`revokeOtherSessions`). */
export function PasswordSection() {
  const t = useStore(accountMessages)
  const cache = useAccountCache()
  const form = useForm<ChangePasswordValues>({
    resolver: formResolver(authSchema('changePasswordSchema')),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ currentPassword, password }) => authApi.changePassword(currentPassword, password),
    {
      passwordField: 'currentPassword',
      onSuccess: async () => {
        form.reset()
        await cache.sessionsChanged()
      },
    },
  )
  const { errors } = form.formState

  return (
    <Section title={t.passwordTitle}>
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.currentPassword} error={errors.currentPassword?.message}>
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          )}
        </Field>
        <NewPasswordFields form={form} passwordLabel={t.newPassword} confirmLabel={t.confirmPassword} />
        <FormSubmit
          label={t.changePassword}
          pendingLabel={t.saving}
          pending={mutation.isPending}
          error={errorText}
          success={mutation.isSuccess && !form.formState.isDirty ? t.passwordChanged : undefined}
          variant="outline"
        />
      </form>
    </Section>
  )
}

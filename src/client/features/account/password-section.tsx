import { useStore } from '@nanostores/react'
import { useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { type ChangePasswordValues, changePasswordSchema } from '@/shared/auth'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { authApi } from '@/client/lib/auth-api'
import { formResolver } from '@/client/lib/form-resolver'
import { validationMessages } from '@/client/lib/messages'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { Section } from './section'
import { sessionsQueryKey } from './sessions-section'

/** A new password signs out every other device (`revokeOtherSessions`). */
export function PasswordSection() {
  const t = useStore(accountMessages)
  const hints = useStore(validationMessages)
  const queryClient = useQueryClient()
  const form = useForm<ChangePasswordValues>({
    resolver: formResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ currentPassword, password }) => authApi.changePassword(currentPassword, password),
    {
      passwordField: 'currentPassword',
      onSuccess: async () => {
        form.reset()
        await queryClient.invalidateQueries({ queryKey: sessionsQueryKey })
      },
    },
  )
  const { errors } = form.formState

  return (
    <Section title={t.passwordTitle}>
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.currentPassword} error={errors.currentPassword?.message}>
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          )}
        </Field>
        <Field label={t.newPassword} hint={hints.passwordHint} error={errors.password?.message}>
          {(control) => (
            <PasswordInput {...control} autoComplete="new-password" {...form.register('password')} />
          )}
        </Field>
        <Field label={t.confirmPassword} error={errors.confirmPassword?.message}>
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete="new-password"
              {...form.register('confirmPassword')}
            />
          )}
        </Field>
        {errorText && <Alert variant="error">{errorText}</Alert>}
        {mutation.isSuccess && !form.formState.isDirty && (
          <Alert variant="success">{t.passwordChanged}</Alert>
        )}
        <div>
          <Button type="submit" variant="outline" disabled={mutation.isPending}>
            {mutation.isPending ? t.saving : t.changePassword}
          </Button>
        </div>
      </form>
    </Section>
  )
}

import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { PasswordConfirmValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Button, type ButtonProps } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'

/** A sensitive change asks for the password again. */
export function PasswordConfirmForm<T>({
  submitLabel,
  variant,
  confirm,
  onConfirmed,
  onCancel,
}: {
  submitLabel: string
  variant?: ButtonProps['variant']
  confirm: (password: string) => Promise<T>
  onConfirmed: (result: T) => unknown
  onCancel: () => void
}) {
  const t = useStore(accountMessages)
  const form = useForm<PasswordConfirmValues>({
    resolver: formResolver(authSchema('passwordConfirmSchema')),
    defaultValues: { password: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ password }) => confirm(password), {
    passwordField: 'password',
    onSuccess: onConfirmed,
  })
  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid max-w-sm gap-4">
      <Field label={t.password} hint={t.mfaPasswordLead} error={form.formState.errors.password?.message}>
        {(control) => (
          <PasswordInput
            {...control}
            autoComplete="current-password"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the button just pressed
            autoFocus
            {...form.register('password')}
          />
        )}
      </Field>
      <FormSubmit
        label={submitLabel}
        pendingLabel={t.saving}
        pending={mutation.isPending}
        error={errorText}
        variant={variant}
      >
        <Button variant="ghost" onClick={onCancel}>
          {t.cancel}
        </Button>
      </FormSubmit>
    </form>
  )
}

import { useStore } from '@nanostores/react'
import type { UseFormReturn } from 'react-hook-form'
import { Field } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { validationMessages } from '@/client/lib/messages'

interface NewPasswordValues {
  password: string
  confirmPassword: string
}

/**
 * A new password, with its rules as the hint, and the same again (the schema's `passwordsMatch`
 * compares them); both `new-password` for password managers. The form's fields are named
 * `password` and `confirmPassword`.
 */
export function NewPasswordFields<T extends NewPasswordValues>({
  form,
  passwordLabel,
  confirmLabel,
}: {
  form: UseFormReturn<T>
  passwordLabel: string
  confirmLabel: string
}) {
  const hints = useStore(validationMessages)
  // Only these two fields are used: react-hook-form cannot narrow a generic form's paths to them.
  const { register, formState } = form as unknown as UseFormReturn<NewPasswordValues>
  const { errors } = formState
  return (
    <>
      <Field label={passwordLabel} hint={hints.passwordHint} error={errors.password?.message}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...register('password')} />}
      </Field>
      <Field label={confirmLabel} error={errors.confirmPassword?.message}>
        {(control) => (
          <PasswordInput {...control} autoComplete="new-password" {...register('confirmPassword')} />
        )}
      </Field>
    </>
  )
}

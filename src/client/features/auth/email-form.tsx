import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { EmailFormValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Field, Input } from '@/client/components/ui/field'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { authMessages } from './messages'

/** One email field that asks for an email (a link or a code) to be sent to it. */
export function EmailForm({
  submitLabel,
  pendingLabel,
  send,
  onSent,
}: {
  submitLabel: string
  pendingLabel: string
  send: (email: string) => Promise<unknown>
  onSent: (email: string) => void
}) {
  const t = useStore(authMessages)
  const form = useForm<EmailFormValues>({
    resolver: formResolver(authSchema('emailFormSchema')),
    defaultValues: { email: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ email }) => send(email), {
    onSuccess: (_, { email }) => onSent(email),
  })
  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <Field label={t.email} error={form.formState.errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" {...form.register('email')} />
        )}
      </Field>
      <FormSubmit
        label={submitLabel}
        pendingLabel={pendingLabel}
        pending={mutation.isPending}
        error={errorText}
        stretch
      />
    </form>
  )
}

import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { ChangeEmailValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Field, Input } from '@/client/components/ui/field'
import type { SessionUser } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { Section } from './section'

/** A new address is used once its owner opens the link sent to it (`/confirm?type=email_change`). */
export function EmailSection({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const form = useForm<ChangeEmailValues>({
    resolver: formResolver(authSchema('changeEmailSchema')),
    defaultValues: { newEmail: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ newEmail }) =>
    authApi.changeEmail(newEmail),
  )

  return (
    <Section
      title={t.emailTitle}
      lead={
        <span className="flex flex-wrap items-center gap-2">
          {t.currentEmail({ email: user.email })}
          <span
            className={`rounded-full border px-2 py-0.5 text-xs font-medium ${user.emailVerified ? 'border-success text-success' : 'border-warning text-warning'}`}
          >
            {user.emailVerified ? t.verified : t.notVerified}
          </span>
        </span>
      }
    >
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.newEmail} error={form.formState.errors.newEmail?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="email" {...form.register('newEmail')} />
          )}
        </Field>
        <FormSubmit
          label={t.changeEmail}
          pendingLabel={t.saving}
          pending={mutation.isPending}
          error={errorText}
          success={mutation.isSuccess ? t.emailChangeSent({ email: mutation.variables.newEmail }) : undefined}
          variant="outline"
        />
      </form>
    </Section>
  )
}

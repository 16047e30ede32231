import { useStore } from '@nanostores/react'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import type { DeleteAccountValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Button } from '@/client/components/ui/button'
import { Field, Input } from '@/client/components/ui/field'
import { PasswordInput } from '@/client/components/ui/password-input'
import { type SessionUser, sessionEnded } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { Section } from './section'

/** Deleting takes the account's email typed out (the button stays off until it matches) and the password. */
export function DeleteSection({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const form = useForm<DeleteAccountValues>({
    resolver: formResolver(authSchema('deleteAccountSchema')),
    defaultValues: { typed: '', password: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ password }) => authApi.deleteAccount(password),
    {
      passwordField: 'password',
      onSuccess: async () => {
        sessionEnded()
        toast({ title: accountMessages.get().deleted, variant: 'success' })
        await navigate({ to: '/' })
      },
    },
  )
  const typed = useWatch({ control: form.control, name: 'typed' })
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase()

  return (
    <Section title={t.deleteTitle} lead={t.deleteLead} danger>
      {open ? (
        <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid max-w-sm gap-4">
          <Field label={t.deleteTypeEmail({ email: user.email })}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                {...form.register('typed')}
              />
            )}
          </Field>
          <Field label={t.password} error={form.formState.errors.password?.message}>
            {(control) => (
              <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />
            )}
          </Field>
          <FormSubmit
            label={t.deleteConfirm}
            pendingLabel={t.deleting}
            pending={mutation.isPending}
            error={errorText}
            variant="destructive"
            disabled={!matches}
          >
            <Button variant="ghost" onClick={() => setOpen(false)}>
              {t.cancel}
            </Button>
          </FormSubmit>
        </form>
      ) : (
        <Button variant="destructive" onClick={() => setOpen(true)}>
          {t.deleteOpen}
        </Button>
      )}
    </Section>
  )
}

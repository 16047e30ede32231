import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { ProfileValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Field, Input } from '@/client/components/ui/field'
import { type SessionUser, refreshSession } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { PictureControls } from './picture/picture-controls'
import { Section } from './section'

export function ProfileSection({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const form = useForm<ProfileValues>({
    resolver: formResolver(authSchema('profileSchema')),
    defaultValues: { name: user.name },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ name }) => authApi.updateUser({ name }),
    {
      onSuccess: async (_, values) => {
        await refreshSession('USER_UPDATED')
        form.reset(values)
        toast({ title: accountMessages.get().saved, variant: 'success' })
      },
    },
  )
  const { errors } = form.formState

  return (
    <Section title={t.profileTitle}>
      <PictureControls user={user} />
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="mt-6 grid gap-4">
        <Field label={t.name} error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" {...form.register('name')} />}
        </Field>
        <FormSubmit
          label={t.save}
          pendingLabel={t.saving}
          pending={mutation.isPending}
          error={errorText}
          disabled={!form.formState.isDirty}
        />
      </form>
    </Section>
  )
}

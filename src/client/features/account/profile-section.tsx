import { useStore } from '@nanostores/react'
import { useForm, useWatch } from 'react-hook-form'
import { type ProfileValues, isHttpsUrl, profileSchema } from '@/shared/auth'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Avatar } from '@/client/components/ui/avatar'
import { Field, Input } from '@/client/components/ui/field'
import { type SessionUser, refreshSession } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { formResolver } from '@/client/lib/form-resolver'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { Section } from './section'

export function ProfileSection({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const form = useForm<ProfileValues>({
    resolver: formResolver(profileSchema),
    defaultValues: { name: user.name, image: user.image ?? '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ name, image }) => authApi.updateUser({ name, image: image || null }),
    {
      onSuccess: async (_, values) => {
        await refreshSession('USER_UPDATED')
        form.reset(values)
        toast({ title: accountMessages.get().saved, variant: 'success' })
      },
    },
  )
  const { errors } = form.formState
  const [preview, name] = useWatch({ control: form.control, name: ['image', 'name'] })

  return (
    <Section title={t.profileTitle}>
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <div className="flex items-center gap-4">
          {/* A preview: the name is in the field beside it. */}
          <span aria-hidden="true" className="contents">
            <Avatar src={isHttpsUrl(preview.trim()) ? preview.trim() : null} alt={name || user.name} size="3xl" />
          </span>
          <div className="grid flex-1 gap-4">
            <Field label={t.name} error={errors.name?.message}>
              {(control) => <Input {...control} autoComplete="name" {...form.register('name')} />}
            </Field>
          </div>
        </div>
        <Field label={t.avatarUrl} hint={t.avatarHint} error={errors.image?.message}>
          {(control) => (
            <Input {...control} type="url" inputMode="url" autoComplete="photo" {...form.register('image')} />
          )}
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

import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import { type SecondFactorValues, secondFactorSchema } from '@/shared/auth'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Input } from '@/client/components/ui/field'
import { refreshSession } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from './auth-card'
import { authMessages } from './messages'

/** The MFA step of every sign-in: an authenticator code or a backup code. */
export function SecondFactor({ onCancel }: { onCancel: () => void }) {
  const t = useStore(authMessages)
  const form = useForm<SecondFactorValues>({
    resolver: formResolver(secondFactorSchema),
    defaultValues: { code: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ code }) => authApi.verifySecondFactor(code),
    {
      onSuccess: () => refreshSession('MFA_CHALLENGE_VERIFIED', 'SIGNED_IN'),
      fieldMessage: () => t.wrongAuthenticationCode,
    },
  )
  return (
    <AuthCard
      title={t.mfaTitle}
      lead={t.mfaLead}
      footer={
        <button type="button" onClick={onCancel} className={authLinkClass}>
          {t.backToSignIn}
        </button>
      }
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.authenticationCode} error={form.formState.errors.code?.message}>
          {(control) => (
            <Input
              {...control}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the one thing to do on this step
              autoFocus
              className="font-mono tracking-widest"
              {...form.register('code')}
            />
          )}
        </Field>
        {errorText && <Alert variant="error">{errorText}</Alert>}
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? t.verifying : t.verify}
        </Button>
      </form>
    </AuthCard>
  )
}

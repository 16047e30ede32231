import { useStore } from '@nanostores/react'
import { useForm } from 'react-hook-form'
import type { SecondFactorValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { OneTimeCodeField } from '@/client/components/forms/one-time-code-field'
import { refreshSession } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard, authLinkClass } from './auth-card'
import { authMessages } from './messages'

/** The MFA step of every sign-in: an authenticator code or a backup code. */
export function SecondFactor({ onCancel }: { onCancel: () => void }) {
  const t = useStore(authMessages)
  const form = useForm<SecondFactorValues>({
    resolver: formResolver(authSchema('secondFactorSchema')),
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
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the one thing to do on this step */}
        <OneTimeCodeField form={form} label={t.authenticationCode} backupCodes autoFocus />
        <FormSubmit
          label={t.verify}
          pendingLabel={t.verifying}
          pending={mutation.isPending}
          error={errorText}
          stretch
        />
      </form>
    </AuthCard>
  )
}

import { useStore } from '@nanostores/react'
import { type ReactNode, useState } from 'react'
import { useForm } from 'react-hook-form'
import { CODE_LENGTH } from '@/shared/auth'
import type { CodeSignInValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { OneTimeCodeField } from '@/client/components/forms/one-time-code-field'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { AuthCard } from './auth-card'
import { CheckEmail } from './check-email'
import { EmailForm } from './email-form'
import { authMessages } from './messages'
import { PasskeySignIn } from './passkey-sign-in'
import { ProviderSignIn } from './provider-sign-in'
import { MethodLink, afterFirstFactor } from './sign-in'

/**
 * "Sign in with a code": the email first ("Send code"), then the `CODE_LENGTH` digits ("Verify").
 * Beside the email, the other ways in: a passkey, a provider.
 */
export function CodeSignIn({ askSecondFactor, notice }: { askSecondFactor: () => void; notice?: ReactNode }) {
  const t = useStore(authMessages)
  const [sentTo, setSentTo] = useState<string | null>(null)
  return (
    <AuthCard
      title={t.signInWithCode}
      lead={sentTo ? t.codeSent({ email: sentTo }) : t.codeLead}
      footer={<MethodLink method="password">{t.signInWithPassword}</MethodLink>}
    >
      {sentTo ? (
        <CodeStep email={sentTo} askSecondFactor={askSecondFactor} onChangeEmail={() => setSentTo(null)} />
      ) : (
        <>
          {notice}
          <EmailForm
            submitLabel={t.sendCode}
            pendingLabel={t.sendingCode}
            send={authApi.sendSignInCode}
            onSent={setSentTo}
          />
          <PasskeySignIn askSecondFactor={askSecondFactor} />
          <ProviderSignIn />
        </>
      )}
    </AuthCard>
  )
}

function CodeStep({
  email,
  askSecondFactor,
  onChangeEmail,
}: {
  email: string
  askSecondFactor: () => void
  onChangeEmail: () => void
}) {
  const t = useStore(authMessages)
  const form = useForm<CodeSignInValues>({
    resolver: formResolver(authSchema('codeSignInSchema')),
    defaultValues: { email, code: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, authApi.signInWithCode, {
    onSuccess: (answer) => afterFirstFactor(answer, askSecondFactor),
  })
  return (
    <>
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the one thing to do on this step */}
        <OneTimeCodeField form={form} label={t.code} length={CODE_LENGTH} autoFocus />
        <FormSubmit
          label={t.verify}
          pendingLabel={t.verifying}
          pending={mutation.isPending}
          error={errorText}
          stretch
        />
      </form>
      <CheckEmail
        resend={() => authApi.sendSignInCode(email)}
        onChangeEmail={onChangeEmail}
      />
    </>
  )
}

import { useStore } from '@nanostores/react'
import { useState } from 'react'
import { authApi } from '@/client/lib/auth-api'
import { AuthCard } from './auth-card'
import { CheckEmail } from './check-email'
import { EmailForm } from './email-form'
import { authMessages } from './messages'
import { MethodLink } from './sign-in'

/** "Forgot password?": asks for a recovery link (the answer is the same for unknown emails). */
export function RecoveryRequest() {
  const t = useStore(authMessages)
  const [sentTo, setSentTo] = useState<string | null>(null)
  return (
    <AuthCard
      title={sentTo ? t.checkEmailTitle : t.recoveryTitle}
      lead={sentTo ? undefined : t.recoveryLead}
      footer={<MethodLink method="password">{t.backToSignIn}</MethodLink>}
    >
      {sentTo ? (
        <CheckEmail
          message={t.recoverySent({ email: sentTo })}
          resend={() => authApi.requestPasswordReset(sentTo)}
          onChangeEmail={() => setSentTo(null)}
        />
      ) : (
        <EmailForm
          submitLabel={t.sendLink}
          pendingLabel={t.sendingLink}
          send={authApi.requestPasswordReset}
          onSent={setSentTo}
        />
      )}
    </AuthCard>
  )
}

import { useStore } from '@nanostores/react'
import { currentUser } from '@/client/lib/auth'
import { Page } from '@/client/components/page'
import { DeleteSection } from './delete-section'
import { EmailSection } from './email-section'
import { accountMessages } from './messages'
import { PasswordSection } from './password-section'
import { ProfileSection } from './profile-section'
import { SessionsSection } from './sessions-section'
import { SignInMethodsSection } from './sign-in-methods-section'
import { TwoFactorSection } from './two-factor-section'

/**
 * `/account` (auth guard): profile, email, password, sign-in methods, two factors, sessions,
 * deletion. `providerError`: why linking a provider failed, as the provider came back (`?error=`).
 */
export function AccountPage({ providerError }: { providerError?: string }) {
  const t = useStore(accountMessages)
  const user = useStore(currentUser)
  return (
    <Page title={t.title} lead={t.lead}>
      {user && (
        <div className="grid gap-6">
          {/* Keyed by user: a profile changed elsewhere (another tab) resets the form. */}
          <ProfileSection key={`${user.name}\n${user.image ?? ''}`} user={user} />
          <EmailSection user={user} />
          <PasswordSection />
          <SignInMethodsSection providerError={providerError} />
          <TwoFactorSection user={user} />
          <SessionsSection />
          <DeleteSection user={user} />
        </div>
      )}
    </Page>
  )
}

import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { currentUser } from '@/client/lib/auth'
import { Page } from '@/client/components/page'
import { DataSection } from './data-section'
import { DeleteSection } from './delete-section'
import { EmailSection } from './email-section'
import { accountMessages } from './messages'
import { PasswordSection } from './password-section'
import { PracticeSection } from './practice-section'
import { ProfileSection } from './profile-section'
import { SessionsSection } from './sessions-section'
import { SignInMethodsSection } from './sign-in-methods-section'
import { TwoFactorSection } from './two-factor-section'

/**
 * `/account` (auth guard): profile and picture, practice settings, email, password, sign-in methods, two factors,
 * sessions, a copy of one's data, deletion. `providerError`: why linking a provider failed, as the provider came back (`?error=`).
 * `practice`: what another feature adds under "Practice" (the desired retention).
 */
export function AccountPage({ providerError, practice }: { providerError?: string; practice?: ReactNode }) {
  const t = useStore(accountMessages)
  const user = useStore(currentUser)
  return (
    <Page title={t.title} lead={t.lead}>
      {user && (
        <div className="grid gap-6">
          {/* Keyed by name: a name changed elsewhere (another tab) resets the form. Not by picture: its
              buttons keep focus through a change of picture. */}
          <ProfileSection key={user.name} user={user} />
          <PracticeSection>{practice}</PracticeSection>
          <EmailSection user={user} />
          <PasswordSection />
          <SignInMethodsSection providerError={providerError} />
          <TwoFactorSection user={user} />
          <SessionsSection />
          <DataSection />
          <DeleteSection user={user} />
        </div>
      )}
    </Page>
  )
}

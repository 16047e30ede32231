import { useStore } from '@nanostores/react'
import { Suspense, lazy, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { type SessionUser, refreshSession } from '@/client/lib/auth'
import { type TwoFactorSetup, authApi } from '@/client/lib/auth-api'
import { toast } from '@/client/lib/toast'
import { accountMessages } from './messages'
import { PasswordConfirmForm } from './password-confirm-form'
import { Section } from './section'

// Asked for when the password step of turning it on starts: ready by the time the password is.
const loadEnrol = () => import('./two-factor-enrol')
const Enrol = lazy(loadEnrol)

type Step = 'idle' | 'password' | { setup: TwoFactorSetup }

/** TOTP: password → QR code, key and backup codes → first code turns it on. Off with the password. */
export function TwoFactorSection({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const [step, setStep] = useState<Step>('idle')
  const enabled = user.twoFactorEnabled ?? false
  const done = async (message: string) => {
    await refreshSession('USER_UPDATED')
    setStep('idle')
    toast({ title: message, variant: 'success' })
  }

  return (
    <Section title={t.mfaTitle} lead={enabled ? t.mfaOn : t.mfaOff}>
      {step === 'idle' && (
        <Button
          variant={enabled ? 'outline' : 'primary'}
          onClick={() => {
            if (!enabled) void loadEnrol()
            setStep('password')
          }}
        >
          {enabled ? t.turnOff : t.turnOn}
        </Button>
      )}
      {step === 'password' &&
        (enabled ? (
          <PasswordConfirmForm
            submitLabel={t.turnOff}
            variant="destructive"
            confirm={authApi.disableTwoFactor}
            onConfirmed={() => done(accountMessages.get().mfaDisabled)}
            onCancel={() => setStep('idle')}
          />
        ) : (
          <PasswordConfirmForm
            submitLabel={t.turnOn}
            confirm={authApi.enableTwoFactor}
            onConfirmed={(setup) => setStep({ setup })}
            onCancel={() => setStep('idle')}
          />
        ))}
      {typeof step === 'object' && (
        <Suspense fallback={null}>
          <Enrol
            setup={step.setup}
            onEnabled={() => done(accountMessages.get().mfaEnabled)}
            onCancel={() => setStep('idle')}
          />
        </Suspense>
      )}
    </Section>
  )
}

import { useStore } from '@nanostores/react'
import { type ProviderErrorCode, providerErrorCodes } from '@/shared/sign-in-methods'
import { Alert } from '@/client/components/ui/alert'
import { apiErrorMessages } from '@/client/lib/messages'
import { providerErrorMessages } from './messages'

/**
 * The app's own code for an account an administrator disabled: its sentence is the one every
 * other sign-in gets (the API's `account_disabled`).
 */
type AppCode = 'account_disabled'

/** One sentence for each kind of failure (the codes of `providerErrorCodes`); several share one. */
const kindOfCode = {
  access_denied: 'cancelled',
  state_mismatch: 'expired',
  state_not_found: 'expired',
  please_restart_the_process: 'expired',
  invalid_callback_request: 'expired',
  invalid_code: 'unavailable',
  provider_unavailable: 'unavailable',
  provider_timeout: 'timeout',
  issuer_mismatch: 'unverifiable',
  unable_to_get_user_info: 'unverifiable',
  email_not_found: 'noEmail',
  email_not_verified_by_provider: 'emailNotVerified',
  account_not_linked: 'accountNotLinked',
  account_already_linked_to_different_user: 'linkedElsewhere',
  email_does_not_match: 'emailMismatch',
  unable_to_link_account: 'linkFailed',
  account_disabled: 'disabled',
} as const satisfies Record<ProviderErrorCode | AppCode, string>

type ProviderErrorKind = (typeof kindOfCode)[ProviderErrorCode | AppCode] | 'generic'

const isKnown = (code: string): code is ProviderErrorCode | AppCode =>
  code === 'account_disabled' || (providerErrorCodes as readonly string[]).includes(code)

/** The kind of a code; a code this client does not know gets the generic sentence. */
function providerErrorKind(code: string): ProviderErrorKind {
  return isKnown(code) ? kindOfCode[code] : 'generic'
}

/**
 * What went wrong at the provider, from the `?error=` code it came back with, in the interface
 * language; never the provider's own `error_description`. A cancel is no failure: said quietly.
 */
export function ProviderErrorAlert({
  code,
  linking = false,
  className,
}: {
  code: string
  /** Back from linking a provider on /account, not from signing in. */
  linking?: boolean
  className?: string
}) {
  const t = useStore(providerErrorMessages)
  const errorTexts = useStore(apiErrorMessages)
  const kind = providerErrorKind(code)
  const text =
    kind === 'disabled'
      ? errorTexts.accountDisabled
      : linking && kind === 'cancelled'
        ? t.cancelledLink
        : linking && kind === 'generic'
          ? t.genericLink
          : t[kind]
  return (
    <Alert variant={kind === 'cancelled' ? 'info' : 'error'} className={className}>
      {text}
    </Alert>
  )
}

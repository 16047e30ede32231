import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { type RefObject, useEffect, useRef, useState } from 'react'
import type { SignInMethods } from '@/shared/sign-in-methods'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { ProviderErrorAlert } from '@/client/components/sign-in/provider-error-alert'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Skeleton } from '@/client/components/ui/skeleton'
import { authApi } from '@/client/lib/auth-api'
import { errorMessage } from '@/client/lib/error-message'
import { formatDateTime } from '@/client/lib/format-time'
import { locale } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { useProviderRedirect } from '@/client/lib/provider-redirect'
import { signInMethodsQuery, useAccountCache } from './api'
import { type MethodChanged, subheadingClass } from './method-change'
import { accountMessages } from './messages'
import { Passkeys } from './passkeys'
import { RemovableRow, useConfirmedRemoval } from './removable-row'
import { Section } from './section'

type Provider = SignInMethods['providers'][number]
type LinkedIdentity = Provider['linked'][number]

/**
 * Which provider this tab went to link (the provider sends the browser back to `/account` with
 * nothing to say it succeeded): read once back here, to say it and show the section.
 */
const LINKING_KEY = 'lingua.linking'

function readLinking(): string | null {
  try {
    return sessionStorage.getItem(LINKING_KEY)
  } catch {
    return null
  }
}

/**
 * "Sign-in methods": the password, the providers (link, unlink) and the passkeys (add, rename,
 * remove). The last way to sign in cannot be removed: its button is off, and the server refuses.
 * `providerError`: the `?error=` a provider sent the browser back with after linking.
 */
export function SignInMethodsSection({ providerError }: { providerError?: string }) {
  const t = useStore(accountMessages)
  const cache = useAccountCache()
  const methods = useQuery(signInMethodsQuery())
  const [status, setStatus] = useState('')
  const [linking] = useState(readLinking)
  useEffect(() => {
    try {
      sessionStorage.removeItem(LINKING_KEY)
    } catch {
      // Nothing was kept, then.
    }
  }, [])
  const section = useRef<HTMLElement>(null)
  const providersHeading = useRef<HTMLHeadingElement>(null)
  const passkeysHeading = useRef<HTMLHeadingElement>(null)

  const changed: MethodChanged = async (message) => {
    setStatus(message)
    await cache.signInMethodsChanged()
  }

  // Back from a provider: this section is what the person came back for.
  const returned = Boolean(providerError ?? linking)
  useEffect(() => {
    if (returned) section.current?.scrollIntoView({ block: 'start' })
  }, [returned])
  // Linked, unless it came back with an error: said until the next change.
  const linked = providerError
    ? undefined
    : methods.data?.providers.find((provider) => provider.id === linking && provider.linked.length > 0)

  const data = methods.data
  const only = (data?.count ?? 0) <= 1
  return (
    <Section ref={section} title={t.signInMethodsTitle} lead={t.signInMethodsLead}>
      <div className="grid gap-6">
        {providerError && <ProviderErrorAlert code={providerError} linking />}
        {methods.isPending && (
          <div role="status" aria-label={t.signInMethodsLoading} className="grid gap-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        )}
        {methods.isError && !data && <ErrorAlert error={methods.error} onRetry={methods.refetch} />}
        {data && (
          <>
            <div>
              <h3 className="font-semibold">{t.password}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{data.password ? t.passwordSet : t.passwordNotSet}</p>
            </div>
            {data.providers.length > 0 && (
              <Providers providers={data.providers} only={only} headingRef={providersHeading} onChanged={changed} />
            )}
            <Passkeys passkeys={data.passkeys} only={only} headingRef={passkeysHeading} onChanged={changed} />
          </>
        )}
      </div>
      {/* Every change is said here, and read out. */}
      <p role="status" className="mt-4 text-sm font-medium text-success empty:mt-0">
        {status || (linked ? t.providerLinked({ name: linked.name }) : '')}
      </p>
    </Section>
  )
}

/** Each configured provider: "Link", or each identity of it linked to the account with "Unlink". */
function Providers({
  providers,
  only,
  headingRef,
  onChanged,
}: {
  providers: Provider[]
  only: boolean
  headingRef: RefObject<HTMLHeadingElement | null>
  onChanged: MethodChanged
}) {
  const t = useStore(accountMessages)
  const errorTexts = useStore(apiErrorMessages)
  const link = useProviderRedirect(
    (provider: Provider) => authApi.linkProvider(provider.id, new URL('/account', window.location.origin).toString()),
    (provider) => {
      try {
        sessionStorage.setItem(LINKING_KEY, provider.id)
      } catch {
        // Private mode: the page comes back without saying it linked.
      }
    },
  )
  const unlink = useConfirmedRemoval({
    remove: ({ identity }: { provider: Provider; identity: LinkedIdentity }) => authApi.unlinkProvider(identity.id),
    removed: ({ provider }) => accountMessages.get().providerUnlinked({ name: provider.name }),
    onChanged,
  })
  const unlinking = unlink.asked

  return (
    <div>
      <h3 ref={headingRef} tabIndex={-1} className={subheadingClass}>
        {t.providersTitle}
      </h3>
      <ul className="mt-2 divide-y">
        {providers.flatMap((provider) =>
          provider.linked.length === 0
            ? [
                <li key={provider.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium wrap-break-word">{provider.name}</p>
                    <p className="text-sm text-muted-foreground">{t.notLinked}</p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t.linkProvider({ name: provider.name })}
                    disabled={link.leaving}
                    onClick={() => link.start(provider)}
                  >
                    {link.leaving && link.target?.id === provider.id ? t.openingProvider : t.link}
                  </Button>
                </li>,
              ]
            : provider.linked.map((identity) => (
                <LinkedRow
                  key={identity.id}
                  provider={provider}
                  identity={identity}
                  only={only}
                  onUnlink={() => unlink.ask({ provider, identity })}
                />
              )),
        )}
      </ul>
      {link.error && <Alert variant="error">{errorMessage(link.error, errorTexts)}</Alert>}
      <ConfirmDialog
        {...unlink.dialog}
        title={t.unlinkTitle({ name: unlinking?.provider.name ?? '' })}
        description={t.unlinkLead({ name: unlinking?.provider.name ?? '' })}
        confirmLabel={t.unlink}
        pendingLabel={t.unlinking}
        returnFocus={headingRef}
      />
    </div>
  )
}

function LinkedRow({
  provider,
  identity,
  only,
  onUnlink,
}: {
  provider: Provider
  identity: LinkedIdentity
  only: boolean
  onUnlink: () => void
}) {
  const t = useStore(accountMessages)
  const language = useStore(locale)
  const linkedAt = new Date(identity.linkedAt)
  return (
    <RemovableRow only={only} removeLabel={t.unlinkProvider({ name: provider.name })} removeText={t.unlink} onRemove={onUnlink}>
      <p className="font-medium wrap-break-word">{provider.name}</p>
      <p className="text-sm text-muted-foreground">
        <time dateTime={identity.linkedAt} title={formatDateTime(language, linkedAt)}>
          {t.linkedOn({ date: formatDateTime(language, linkedAt, { dateStyle: 'medium' }) })}
        </time>
      </p>
    </RemovableRow>
  )
}

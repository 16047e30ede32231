import { useStore } from '@nanostores/react'
import { Link, useCanGoBack, useRouter } from '@tanstack/react-router'
import { isbot } from 'isbot'
import { useEffect } from 'react'
import { Button, buttonClass } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { api } from '@/client/lib/api'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError, NetworkError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { errorMessages } from './messages'
import { screenMessage } from './screen-message'
import { ERROR_HEADING_ID, type ErrorScreenProps } from './screen-props'

/**
 * Whether the browser has a previous same-origin entry (Navigation API), which the router cannot
 * know after a full page load: e.g. /about, then /nope typed in the address bar.
 */
function browserCanGoBack(): boolean {
  return (window as unknown as { navigation?: { canGoBack?: boolean } }).navigation?.canGoBack === true
}

/**
 * The fallback error screen. A crawler gets no error page: the error is only logged, in the
 * console and in the server's log.
 */
export default function ErrorScreen({ status, message, localized, error }: ErrorScreenProps) {
  const t = useStore(errorMessages)
  const requestTexts = useStore(apiErrorMessages)
  const router = useRouter()
  const canGoBack = useCanGoBack()
  // The server renders the screen for people only (http/static.ts). `window`, not `navigator`,
  // tells the browser: Node (21 and later) has a `navigator` too, whose "Node.js/24" isbot knows.
  const bot = typeof window !== 'undefined' && isbot(navigator.userAgent)
  const text =
    !localized && (error instanceof ApiRequestError || error instanceof NetworkError)
      ? errorMessage(error, requestTexts)
      : screenMessage({ message, localized }, t)
  usePageTitle(bot ? undefined : String(status))

  useEffect(() => {
    if (!bot) return
    console.error(`[${status}] ${message || 'An unknown error occurred.'}`)
    api('/client-errors', {
      method: 'POST',
      json: {
        status,
        message: (message || '').slice(0, 2000),
        path: location.pathname.slice(0, 2000),
        userAgent: navigator.userAgent.slice(0, 1000),
      },
    }).catch(() => undefined)
  }, [bot, status, message])

  if (bot) return null

  return (
    <section
      aria-labelledby={ERROR_HEADING_ID}
      className="mx-auto flex max-w-xl flex-col items-center py-16 text-center"
    >
      <p className="text-6xl font-bold text-primary-text" data-testid="error-status">
        {status}
      </p>
      <PageHeading id={ERROR_HEADING_ID} className="mt-4 text-2xl font-semibold">
        {t.heading}
      </PageHeading>
      <p className="mt-2 break-all text-muted-foreground" data-testid="error-message">
        {text}
      </p>
      <div className="mt-8 flex gap-3">
        <Link to="/" className={buttonClass()}>{t.home}</Link>
        <Button
          variant="outline"
          onClick={() =>
            canGoBack || browserCanGoBack() ? router.history.back() : void router.navigate({ to: '/' })
          }
        >
          {t.goBack}
        </Button>
      </div>
    </section>
  )
}

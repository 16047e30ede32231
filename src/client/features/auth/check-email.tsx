import type { SVGProps } from 'react'
import { useStore } from '@nanostores/react'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Icon } from '@/client/components/ui/icons'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { useAction } from '@/client/lib/use-action'
import { authMessages } from './messages'
import { useCoolDown } from './use-cool-down'

/**
 * "Check your email": what was sent and where, and a button to send it again once the
 * cool-down has run out.
 */
export function CheckEmail({
  message,
  resend,
  onChangeEmail,
}: {
  /** What was sent where; left out when the page says it already. */
  message?: string
  resend: () => Promise<unknown>
  onChangeEmail?: () => void
}) {
  const t = useStore(authMessages)
  const errorTexts = useStore(apiErrorMessages)
  const formats = useStore(format)
  const coolDown = useCoolDown()
  const again = useAction(resend, { onSuccess: coolDown.restart })

  return (
    <div className="grid gap-4">
      {message && (
        <div className="flex gap-3">
          <MailIcon className="mt-0.5 size-6 shrink-0 text-primary-text" />
          <p className="wrap-break-word">{message}</p>
        </div>
      )}
      <p className="text-sm text-muted-foreground">{t.notReceived}</p>
      {again.isSuccess && coolDown.secondsLeft > 0 && <Alert variant="success">{t.sentAgain}</Alert>}
      {again.isError && <Alert variant="error">{errorMessage(again.error, errorTexts)}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          disabled={coolDown.secondsLeft > 0 || again.isPending}
          onClick={() => again.mutate()}
        >
          {coolDown.secondsLeft > 0
            ? t.sendAgainIn({ seconds: formats.number(coolDown.secondsLeft) })
            : t.sendAgain}
        </Button>
        {onChangeEmail && (
          <Button variant="ghost" onClick={onChangeEmail}>
            {t.useAnotherEmail}
          </Button>
        )}
      </div>
    </div>
  )
}

const MailIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <rect x="2" y="4" width="20" height="16" rx="2" />
    <path d="m22 7-10 6L2 7" />
  </Icon>
)

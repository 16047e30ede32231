import { useStore } from '@nanostores/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { REMINDER_UNSUBSCRIBE_PATH, type ReminderState } from '@/shared/reminders'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Alert } from '@/client/components/ui/alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { api } from '@/client/lib/api'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { useAction } from '@/client/lib/use-action'
import { reminderMessages } from './messages'

/** The API's path under its base (`/api` is the client's `apiBaseUrl`). */
const path = (token: string) => `${REMINDER_UNSUBSCRIBE_PATH.replace(/^\/api/, '')}?${new URLSearchParams({ token }).toString()}`

/**
 * `/reminders/unsubscribe?token=…` (docs/decisions/0035-reminders.md): opening the link changes
 * nothing (mail scanners follow links); the button turns the reminders off, without signing in.
 */
export function UnsubscribePage({ token }: { token?: string }) {
  const t = useStore(reminderMessages)
  if (!token) {
    return (
      <Card title={t.title} lead={t.noToken}>
        <AccountLink />
      </Card>
    )
  }
  return <Unsubscribe token={token} />
}

/** A narrow card, as the pages of the other emailed links (/confirm) have. */
function Card({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  usePageTitle(title)
  return (
    <article className="mx-auto w-full max-w-md rounded-xl border bg-card p-6 shadow-sm sm:p-8">
      <PageHeading className="text-2xl font-bold tracking-tight">{title}</PageHeading>
      {lead && <p className="mt-2 text-muted-foreground">{lead}</p>}
      <div className="mt-6 grid gap-4">{children}</div>
    </article>
  )
}

function AccountLink() {
  const t = useStore(reminderMessages)
  return (
    <p>
      <Link to="/account" className="font-medium text-primary-text underline-offset-4 hover:underline focus-visible:underline">
        {t.openAccount}
      </Link>
    </p>
  )
}

function Unsubscribe({ token }: { token: string }) {
  const t = useStore(reminderMessages)
  const errors = useStore(apiErrorMessages)
  const queryKey = ['reminders', token]
  const client = useQueryClient()
  const state = useQuery({
    queryKey,
    queryFn: ({ signal }) => api<ReminderState>(path(token), { signal }),
    // A refused link is not worth asking again.
    retry: (count, error) => !(error instanceof ApiRequestError && error.status < 500) && count < 2,
  })
  const stop = useAction(() => api<ReminderState>(path(token), { method: 'POST' }), {
    onSuccess: (answer) => client.setQueryData(queryKey, answer),
  })

  if (state.isPending) {
    return (
      <Card title={t.title}>
        <p role="status">{t.checking}</p>
      </Card>
    )
  }
  if (state.isError) {
    const refused = state.error instanceof ApiRequestError && state.error.status < 500
    return (
      <Card title={t.title}>
        {refused ? <Alert variant="error">{t.invalid}</Alert> : <ErrorAlert error={state.error} onRetry={() => state.refetch()} />}
        <AccountLink />
      </Card>
    )
  }
  if (!state.data.reminderEnabled) {
    return (
      <Card title={t.title}>
        <Alert variant="success">
          <p>{t.stopped}</p>
          <p className="mt-2">{t.turnOnAgain}</p>
        </Alert>
        <AccountLink />
      </Card>
    )
  }
  return (
    <Card title={t.title} lead={t.lead}>
      <p>{t.question}</p>
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault()
          stop.mutate()
        }}
      >
        <FormSubmit
          label={t.stop}
          pendingLabel={t.stopping}
          pending={stop.isPending}
          error={stop.isError ? errorMessage(stop.error, errors) : undefined}
          stretch
        />
      </form>
    </Card>
  )
}

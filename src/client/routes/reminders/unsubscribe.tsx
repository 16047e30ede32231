import { createFileRoute } from '@tanstack/react-router'
import { UnsubscribePage } from '@/client/features/reminders/unsubscribe-page'
import { withQueries } from '@/client/lib/query-client'

/** A reminder email's "Stop these reminders" link (no sign-in: its token is the authority). */
export const Route = createFileRoute('/reminders/unsubscribe')({
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && search.token ? { token: search.token } : {},
  component: withQueries(Unsubscribe),
})

function Unsubscribe() {
  const { token } = Route.useSearch()
  return <UnsubscribePage token={token} />
}

import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '@/client/features/account/account-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/account')({
  beforeLoad: guardsFor('/account'),
  component: withQueries(AccountPage),
})

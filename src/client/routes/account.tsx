import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '../features/account/account-page'
import { guardsFor } from '../lib/guards'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/account')({
  beforeLoad: guardsFor('/account'),
  component: withQueries(AccountPage),
})

import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '@/client/features/account/account-page'
import { RetentionField } from '@/client/features/memory-model/retention-field'
import { guardsFor } from '@/client/lib/guards'
import { providerErrorSearch, useProviderError, withoutProviderError } from '@/client/lib/provider-errors'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/account')({
  // Linking a provider comes back here, with `?error=` when it failed.
  validateSearch: (search: Record<string, unknown>): { error?: string } => providerErrorSearch(search),
  beforeLoad: guardsFor('/account'),
  component: withQueries(Account),
})

function Account() {
  const { error } = Route.useSearch()
  const navigate = Route.useNavigate()
  const providerError = useProviderError(error, () =>
    navigate({ search: withoutProviderError, replace: true, resetScroll: false }),
  )
  return <AccountPage providerError={providerError} practice={<RetentionField />} />
}

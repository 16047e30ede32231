import { createFileRoute } from '@tanstack/react-router'
import { ConfirmPage, type LinkType } from '@/client/features/auth/confirm/confirm-page'

const linkTypes: readonly LinkType[] = ['signup', 'recovery', 'email_change']

export const Route = createFileRoute('/confirm')({
  validateSearch: (search: Record<string, unknown>): { type?: LinkType; token?: string } => {
    const type = linkTypes.find((known) => known === search.type)
    const token = typeof search.token === 'string' && search.token ? search.token : undefined
    return { ...(type ? { type } : {}), ...(token ? { token } : {}) }
  },
  component: Confirm,
})

function Confirm() {
  const { type, token } = Route.useSearch()
  return <ConfirmPage type={type ?? 'signup'} token={token} />
}

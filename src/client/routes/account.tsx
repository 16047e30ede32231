import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '../features/account/account-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/account')({
  beforeLoad: guardsFor('/account'),
  component: AccountPage,
})

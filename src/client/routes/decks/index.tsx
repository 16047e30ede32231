import { createFileRoute } from '@tanstack/react-router'
import { DecksPage } from '@/client/features/decks/decks-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/decks/')({
  beforeLoad: guardsFor('/decks'),
  component: withQueries(DecksPage),
})

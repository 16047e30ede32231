import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { parsePositiveInt } from '@/shared/routes'
import { DeckPage, loadDeck } from '@/client/features/decks/deck-page'
import {
  type DeckWordsSearch,
  deckWordsSearchDefaults,
  validateDeckWordsSearch,
} from '@/client/features/decks/deck-words-search'
import { guardsForParams } from '@/client/lib/guards'
import { queryClient, withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/decks/$id')({
  // The loader comes with the page's code, not with the first page of the app.
  codeSplitGroupings: [['loader', 'component']],
  // The words table's search, sort and page live in the URL; defaults are left out of it.
  validateSearch: (search: Partial<DeckWordsSearch> & SearchSchemaInput): DeckWordsSearch =>
    validateDeckWordsSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(deckWordsSearchDefaults)] },
  // An id that is not a positive whole number is a missing page.
  beforeLoad: guardsForParams('/decks/$id', (params: { id: string }) => parsePositiveInt(params.id) !== undefined),
  // Not the learner's deck, or none: 404 "Deck not found".
  loader: ({ params }) => loadDeck(queryClient, Number(params.id)),
  component: withQueries(DeckRoute),
})

function DeckRoute() {
  const { id } = Route.useParams()
  return <DeckPage key={id} id={Number(id)} />
}

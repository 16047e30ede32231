import { type SearchSchemaInput, createFileRoute } from '@tanstack/react-router'
import { parsePositiveInt } from '@/shared/routes'
import { PracticePage } from '@/client/features/practice/practice-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

/** `?deck=7`: one of the learner's decks practised on its own; without it, the day's practice. */
interface PracticeSearch {
  deck?: number
}

export const Route = createFileRoute('/practice')({
  // Anything but a positive whole number is no deck: the day's practice.
  validateSearch: (search: PracticeSearch & SearchSchemaInput): PracticeSearch => {
    const deck = parsePositiveInt(`${search.deck}`)
    return deck ? { deck } : {}
  },
  beforeLoad: guardsFor('/practice'),
  component: withQueries(PracticeRoute),
})

function PracticeRoute() {
  const { deck } = Route.useSearch()
  // A session of its own for each deck, and for the day's practice.
  return <PracticePage key={deck ?? 'day'} deck={deck} />
}

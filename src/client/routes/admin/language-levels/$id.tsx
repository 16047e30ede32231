import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { parsePositiveInt } from '@/shared/routes'
import { LevelPage, loadLevel } from '@/client/features/admin/levels/level-page'
import { WordsSlot } from '@/client/features/admin/words/words-slot'
import {
  type WordsSearch,
  validateWordsSearch,
  wordsSearchDefaults,
} from '@/client/features/admin/words/words-search'
import { guardsForParams } from '@/client/lib/guards'
import { queryClient, withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/language-levels/$id')({
  // The loader comes with the page's code, not with the first page of the app.
  codeSplitGroupings: [['loader', 'component']],
  // The "Words" section's search and page live in the URL; defaults are left out of it.
  validateSearch: (search: Partial<WordsSearch> & SearchSchemaInput): WordsSearch =>
    validateWordsSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(wordsSearchDefaults)] },
  // An id that is not a positive whole number is a missing page.
  beforeLoad: guardsForParams('/admin/language-levels/$id', (params: { id: string }) => parsePositiveInt(params.id) !== undefined),
  // A level that does not exist: 404 "Language level not found".
  loader: ({ params }) => loadLevel(queryClient, Number(params.id)),
  component: withQueries(LevelRoute),
})

function LevelRoute() {
  const { id } = Route.useParams()
  return <LevelPage key={id} id={Number(id)} words={<WordsSlot levelId={Number(id)} />} />
}

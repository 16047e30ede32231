import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { parsePositiveInt } from '@/shared/routes'
import { LevelPage, loadLevel } from '@/client/features/admin/levels/level-page'
import { WordsSlot } from '@/client/features/admin/words/words-slot'
import {
  type WordsSearch,
  validateWordsSearch,
  wordsSearchDefaults,
} from '@/client/features/admin/words/words-search'
import { guardsFor } from '@/client/lib/guards'
import { HttpError } from '@/client/lib/http-error'
import { queryClient, withQueries } from '@/client/lib/query-client'

const runGuards = guardsFor('/admin/language-levels/$id')

export const Route = createFileRoute('/admin/language-levels/$id')({
  // The loader comes with the page's code, not with the first page of the app.
  codeSplitGroupings: [['loader', 'component']],
  // The "Words" section's search and page live in the URL; defaults are left out of it.
  validateSearch: (search: Partial<WordsSearch> & SearchSchemaInput): WordsSearch =>
    validateWordsSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(wordsSearchDefaults)] },
  beforeLoad: async (ctx) => {
    // An invalid id is a missing page for everyone, before any guard (the server answers 404 too).
    if (parsePositiveInt(ctx.params.id) === undefined) {
      const path = ctx.location.pathname
      throw new HttpError(404, `Page Not Found: ${path}`, { key: 'pageNotFoundParam', path })
    }
    await runGuards(ctx)
  },
  // A level that does not exist: 404 "Language level not found".
  loader: ({ params }) => loadLevel(queryClient, Number(params.id)),
  component: withQueries(LevelRoute),
})

function LevelRoute() {
  const { id } = Route.useParams()
  return <LevelPage key={id} id={Number(id)} words={<WordsSlot levelId={Number(id)} />} />
}

import { createFileRoute } from '@tanstack/react-router'
import { USER_ID_PATTERN } from '@/shared/people'
import { PersonPage, loadPerson } from '@/client/features/admin/person/person-page'
import { guardsFor } from '@/client/lib/guards'
import { HttpError } from '@/client/lib/http-error'
import { queryClient, withQueries } from '@/client/lib/query-client'

const runGuards = guardsFor('/admin/users/$userId')

export const Route = createFileRoute('/admin/users/$userId')({
  // The loader comes with the page's code, not with the first page of the app.
  codeSplitGroupings: [['loader', 'component']],
  beforeLoad: async (ctx) => {
    // An id not of the user-id form is a missing page for everyone, before any guard (the server
    // answers 404 too).
    if (!USER_ID_PATTERN.test(ctx.params.userId)) {
      const path = ctx.location.pathname
      throw new HttpError(404, `Page Not Found: ${path}`, { key: 'pageNotFoundParam', path })
    }
    await runGuards(ctx)
  },
  // A well-formed id with no account: 404 "Account not found".
  loader: ({ params }) => loadPerson(queryClient, params.userId),
  component: withQueries(PersonRoute),
})

function PersonRoute() {
  const { userId } = Route.useParams()
  return <PersonPage key={userId} id={userId} />
}

import { createFileRoute } from '@tanstack/react-router'
import { USER_ID_PATTERN } from '@/shared/people'
import { PersonPage, loadPerson } from '@/client/features/admin/person/person-page'
import { guardsForParams } from '@/client/lib/guards'
import { queryClient, withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/users/$userId')({
  // The loader comes with the page's code, not with the first page of the app.
  codeSplitGroupings: [['loader', 'component']],
  // An id not of the user-id form is a missing page.
  beforeLoad: guardsForParams('/admin/users/$userId', (params: { userId: string }) => USER_ID_PATTERN.test(params.userId)),
  // A well-formed id with no account: 404 "Account not found".
  loader: ({ params }) => loadPerson(queryClient, params.userId),
  component: withQueries(PersonRoute),
})

function PersonRoute() {
  const { userId } = Route.useParams()
  return <PersonPage key={userId} id={userId} />
}

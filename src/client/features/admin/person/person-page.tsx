import { useStore } from '@nanostores/react'
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { PersonDetail } from '@/shared/people'
import { personQuery } from '@/client/api/people'
import { Avatar } from '@/client/components/ui/avatar'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { currentUser } from '@/client/lib/auth'
import { ApiRequestError, HttpError } from '@/client/lib/http-error'
import { usePageTitle } from '@/client/lib/page-title'
import { personMessages } from './messages'
import { PersonActions } from './person-actions'
import { AssessmentCard } from './person-assessment'
import { AccountCard, LearnerCard, SignInMethodsCard } from './person-profile'
import { SessionsCard } from './person-sessions'

/**
 * The 404 of a well-formed id with no account. Its message is read in the interface language when
 * it is thrown: the error screen shows it as it is.
 */
function accountNotFound(): HttpError {
  return new HttpError(404, personMessages.get().notFound)
}

const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404

/**
 * The route's loader: the person before the page shows, or the 404 screen when there is none. Any
 * other failure is left to the page, which says it with a retry button.
 */
export async function loadPerson(queryClient: QueryClient, id: string): Promise<void> {
  try {
    await queryClient.ensureQueryData(personQuery(id))
  } catch (error) {
    if (isNotFound(error)) throw accountNotFound()
  }
}

/** `/admin/users/{id}` (admin): one person, their sign-in methods and sessions, and the actions on them. */
export function PersonPage({ id }: { id: string }) {
  const t = useStore(personMessages)
  const me = useStore(currentUser)
  const query = useQuery(personQuery(id))
  const person = query.data
  usePageTitle(person?.name)

  // Deleted meanwhile (elsewhere), and read again: the page no longer exists.
  if (isNotFound(query.error)) throw accountNotFound()

  return (
    <article className="mx-auto grid max-w-4xl gap-6">
      <nav aria-label={t.breadcrumb} className="text-sm">
        <ol className="flex flex-wrap items-center gap-2 text-muted-foreground">
          <li>
            <Link to="/admin/users" className="underline-offset-4 hover:text-foreground hover:underline">
              {t.people}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="min-w-0 font-medium break-all text-foreground">
            {person?.name ?? '…'}
          </li>
        </ol>
      </nav>
      {!person && query.isError && <ErrorAlert error={query.error} onRetry={query.refetch} />}
      {!person && query.isPending && (
        <div role="status" aria-label={t.loading} className="grid gap-6">
          <Skeleton className="h-12 w-2/3" />
          <Skeleton className="h-56 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      )}
      {person && <PersonView person={person} self={me?.id === person.id} />}
    </article>
  )
}

function PersonView({ person, self }: { person: PersonDetail; self: boolean }) {
  const t = useStore(personMessages)
  const badges = (
    [
      [self, t.you, 'border-primary text-primary-text'],
      [person.role === 'admin', t.administrator, 'border-primary text-primary-text'],
      [!person.emailVerified, t.unconfirmed, 'border-warning'],
      [person.disabled, t.disabledBadge, 'border-error text-error'],
    ] as const
  )
    .filter(([shown]) => shown)
    .map(([, text, look]) => [text, look] as const)
  return (
    <>
      <header className="flex min-w-0 items-center gap-4">
        <Avatar src={person.image} alt={person.name} size="3xl" />
        <div className="min-w-0">
          <PageHeading className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{person.name}</PageHeading>
          <p className="mt-1 break-all text-muted-foreground">{person.email}</p>
          {badges.length > 0 && (
            <ul aria-label={t.status} className="mt-2 flex flex-wrap gap-2">
              {badges.map(([text, look]) => (
                <li key={text} className={`rounded-full border px-2 py-0.5 text-xs font-medium ${look}`}>
                  {text}
                </li>
              ))}
            </ul>
          )}
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <AccountCard person={person} />
        <div className="grid content-start gap-6">
          <SignInMethodsCard person={person} />
          <LearnerCard person={person} />
          <AssessmentCard result={person.latestAssessment} />
        </div>
      </div>
      <SessionsCard person={person} />
      <PersonActions person={person} self={self} />
    </>
  )
}

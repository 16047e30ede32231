import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Suspense, lazy, useRef, useState } from 'react'
import type { Deck, DeckList } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import { Button } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PlusIcon } from '@/client/components/ui/icons'
import { PageHeader } from '@/client/components/page'
import { Skeleton } from '@/client/components/ui/skeleton'
import { locale } from '@/client/lib/i18n'
import { languageTitle } from '@/client/lib/language-names'
import { usePageTitle } from '@/client/lib/page-title'
import { deckListQuery, importRunning, importsQuery } from './api'
import { deckImportMessages, decksMessages } from './messages'
import { useCountsText } from './use-counts-text'

// The form (and its validation) comes with its first opening, not with the list.
const loadDialog = () => import('./deck-dialog')
const DeckDialog = lazy(loadDialog)
const loadImportDialog = () => import('./import-dialog')
const ImportDialog = lazy(loadImportDialog)
// The imports' line comes with the first import to show.
const ImportList = lazy(() => import('./import-list'))

/** An ended import stays on the page this long after it ended (1 hour); running ones always. */
const RECENT_MS = 60 * 60 * 1000

/** The imports to show on the page: running, or ended within the hour; the three latest. */
function recentImports(jobs: ImportJob[] | undefined, since: number): ImportJob[] {
  return (jobs ?? []).filter((job) => importRunning(job) || Date.parse(job.finishedAt ?? job.createdAt) >= since).slice(0, 3)
}

const rowClass = 'relative grid gap-1 rounded-xl border bg-card p-4 sm:p-5'

/** The course words of the current level: one row, not editable (no level yet: how to choose one). */
function CourseRow({ course }: { course: DeckList['course'] }) {
  const t = useStore(decksMessages)
  const lang = useStore(locale)
  const countsText = useCountsText()
  if (!course) {
    return (
      <li className={rowClass}>
        <h2 className="font-semibold">{t.courseNoLevel}</h2>
        <p className="text-sm text-muted-foreground">{t.courseNoLevelLead}</p>
        <Link to="/dashboard" className="justify-self-start text-sm font-medium text-primary-text underline-offset-4 hover:underline">
          {t.chooseLevel}
        </Link>
      </li>
    )
  }
  return (
    <li className={rowClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="font-semibold">{t.courseName({ level: course.levelCode })}</h2>
        {course.language && <span className="text-sm text-muted-foreground">{languageTitle(lang, course.language)}</span>}
      </div>
      <p className="text-sm text-muted-foreground">{t.courseLead}</p>
      <p className="text-sm font-medium tabular-nums">{countsText(course)}</p>
    </li>
  )
}

/** One deck: its name (the link to its page, covering the row), language, description and counts. */
function DeckRow({ deck }: { deck: Deck }) {
  const t = useStore(decksMessages)
  const lang = useStore(locale)
  const countsText = useCountsText()
  return (
    <li className={`${rowClass} hover:bg-muted/50 focus-within:bg-muted/50`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="min-w-0 font-semibold break-words">
          <Link
            to="/decks/$id"
            params={{ id: String(deck.id) }}
            // The link covers the whole row, so a click anywhere on it opens the deck.
            className="text-primary-text underline-offset-4 after:absolute after:inset-0 after:rounded-xl hover:underline"
          >
            {deck.name}
          </Link>
        </h2>
        <span className="text-sm text-muted-foreground">
          {languageTitle(lang, deck.language)} · {deck.practiseDaily ? t.daily : t.notDaily}
        </span>
      </div>
      {deck.description && <p className="line-clamp-2 text-sm break-words text-muted-foreground">{deck.description}</p>}
      <p className="text-sm font-medium tabular-nums">{countsText(deck)}</p>
    </li>
  )
}

function Loading() {
  const t = useStore(decksMessages)
  return (
    <div className="grid gap-3" aria-busy="true">
      <p role="status" className="sr-only">
        {t.loading}
      </p>
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} className="h-24 w-full rounded-xl" />
      ))}
    </div>
  )
}

/**
 * `/decks` (auth): "Your decks": the course words of the current level (not editable), then the
 * learner's own decks, each with its counts; "New deck".
 */
export function DecksPage() {
  const t = useStore(decksMessages)
  const query = useQuery(deckListQuery())
  const [round, setRound] = useState(0)
  const [open, setOpen] = useState(false)
  const newButton = useRef<HTMLButtonElement>(null)
  const importT = useStore(deckImportMessages)
  const imports = useQuery(importsQuery())
  const [importRound, setImportRound] = useState(0)
  const [importOpen, setImportOpen] = useState(false)
  const importButton = useRef<HTMLButtonElement>(null)
  // Read once per visit: what ended before it is old news.
  const [since] = useState(() => Date.now() - RECENT_MS)
  usePageTitle(t.title)
  const data = query.data
  const recent = recentImports(imports.data, since)
  const newDeck = () => {
    setRound((previous) => previous + 1)
    setOpen(true)
  }

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-8">
      <PageHeader title={t.title} lead={t.lead}>
        <div className="flex flex-wrap gap-2">
          <Button
            ref={importButton}
            variant="outline"
            onPointerEnter={() => void loadImportDialog()}
            onFocus={() => void loadImportDialog()}
            onClick={() => {
              setImportRound((previous) => previous + 1)
              setImportOpen(true)
            }}
          >
            {importT.open}
          </Button>
          <Button ref={newButton} onPointerEnter={() => void loadDialog()} onFocus={() => void loadDialog()} onClick={newDeck}>
            <PlusIcon className="size-4" />
            {t.newDeck}
          </Button>
        </div>
      </PageHeader>
      {recent.length > 0 && (
        <Suspense fallback={null}>
          <ImportList jobs={recent} />
        </Suspense>
      )}
      {!data && query.isError ? (
        <ErrorAlert error={query.error} onRetry={query.refetch} />
      ) : !data ? (
        <Loading />
      ) : (
        <ul aria-label={t.listLabel} className="grid gap-3">
          <CourseRow course={data.course} />
          {data.decks.map((deck) => (
            <DeckRow key={deck.id} deck={deck} />
          ))}
        </ul>
      )}
      {data && data.decks.length === 0 && (
        <EmptyState title={t.emptyTitle} hint={t.emptyHint} className="rounded-xl border border-dashed" />
      )}
      {round > 0 && (
        <Suspense fallback={null}>
          <DeckDialog
            key={round}
            deck={null}
            language={data?.course?.language ?? undefined}
            open={open}
            returnFocus={newButton}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
      {importRound > 0 && (
        <Suspense fallback={null}>
          <ImportDialog
            key={importRound}
            open={importOpen}
            language={data?.course?.language ?? undefined}
            returnFocus={importButton}
            onClose={() => setImportOpen(false)}
            onNewDeck={() => {
              setImportOpen(false)
              newDeck()
            }}
          />
        </Suspense>
      )}
    </div>
  )
}

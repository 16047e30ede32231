import { useStore } from '@nanostores/react'
import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Suspense, lazy, useRef, useState } from 'react'
import type { Deck } from '@/shared/decks'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { Button, buttonClass } from '@/client/components/ui/button'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError, HttpError } from '@/client/lib/http-error'
import { locale } from '@/client/lib/i18n'
import { languageTitle } from '@/client/lib/language-names'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { toast } from '@/client/lib/toast'
import { deckQuery, decksApi, useDecksCache } from './api'
import { DeckWords } from './deck-words'
import { ExportMenu } from './export-menu'
import { deckMessages, decksMessages } from './messages'
import { useCountsText } from './use-counts-text'

const loadDialog = () => import('./deck-dialog')
const DeckDialog = lazy(loadDialog)

function deckNotFound(): HttpError {
  return new HttpError(404, 'Deck not found', { key: 'deckNotFound' })
}

const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404

/**
 * The route's loader: the deck before the page shows, or the 404 screen when there is none (or it
 * is another learner's: the API does not tell the two apart).
 */
export async function loadDeck(queryClient: QueryClient, id: number): Promise<void> {
  try {
    await queryClient.ensureQueryData(deckQuery(id))
  } catch (error) {
    throw isNotFound(error) ? deckNotFound() : error
  }
}

/** `/decks/{id}` (auth, owner): one deck, its actions (practise, export, edit, delete) and its words. */
export function DeckPage({ id }: { id: number }) {
  // Once its deletion is under way, the deck is not read again (a live event would ask for it).
  const [deleting, setDeleting] = useState(false)
  const query = useQuery({ ...deckQuery(id), enabled: !deleting })
  const deck = query.data
  usePageTitle(deck?.name)
  // Deleted meanwhile (in another tab), and read again: the page no longer exists.
  if (isNotFound(query.error)) throw deckNotFound()
  if (!deck) {
    return query.isError ? <ErrorAlert error={query.error} onRetry={query.refetch} /> : <Loading />
  }
  return <DeckView deck={deck} read={!deleting} onDeleting={setDeleting} />
}

function Loading() {
  const t = useStore(deckMessages)
  return (
    <div className="grid gap-4" aria-busy="true">
      <p role="status" className="sr-only">
        {t.loading}
      </p>
      <Skeleton className="h-10 w-64" />
      <Skeleton className="h-64 w-full rounded-xl" />
    </div>
  )
}

function DeckView({
  deck,
  read,
  onDeleting,
}: {
  deck: Deck
  /** Whether its words are read (not once its deletion is under way). */
  read: boolean
  onDeleting: (deleting: boolean) => void
}) {
  const t = useStore(deckMessages)
  const list = useStore(decksMessages)
  const lang = useStore(locale)
  const errorTexts = useStore(apiErrorMessages)
  const countsText = useCountsText()
  const decks = useDecksCache()
  const navigate = useNavigate()
  const editButton = useRef<HTMLButtonElement>(null)
  const [editing, setEditing] = useState(0)
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)

  const remove = useMutation({
    onMutate: () => onDeleting(true),
    onError: () => onDeleting(false),
    mutationFn: async () => {
      try {
        await decksApi.remove(deck.id)
      } catch (error) {
        // Deleted in another tab first: gone all the same.
        if (!isNotFound(error)) throw error
      }
    },
    onSuccess: async () => {
      toast({ title: deckMessages.get().deleted({ name: deck.name }), variant: 'success' })
      setConfirming(false)
      await navigate({ to: '/decks' })
      decks.forget(deck.id)
      void decks.refresh()
    },
  })

  return (
    <div className="grid grid-cols-1 gap-8">
      <header className="grid gap-3">
        <Link to="/decks" className="justify-self-start text-sm font-medium text-primary-text underline-offset-4 hover:underline">
          <span aria-hidden="true">← </span>
          {t.backToDecks}
        </Link>
        <PageHeading className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{deck.name}</PageHeading>
        <p className="text-sm text-muted-foreground">
          {languageTitle(lang, deck.language)} · {deck.practiseDaily ? list.daily : list.notDaily}
        </p>
        {deck.description && <p className="text-lg break-words whitespace-pre-line text-muted-foreground">{deck.description}</p>}
        <p className="font-medium tabular-nums">{countsText(deck)}</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Link to="/practice" search={{ deck: deck.id }} className={buttonClass()}>
            {t.practise}
          </Link>
          <ExportMenu deckId={deck.id} />
          <Button
            ref={editButton}
            variant="outline"
            onPointerEnter={() => void loadDialog()}
            onFocus={() => void loadDialog()}
            onClick={() => {
              setEditing((round) => round + 1)
              setOpen(true)
            }}
          >
            {t.edit}
          </Button>
          <Button
            variant="outline"
            className="text-error"
            onClick={() => {
              remove.reset()
              setConfirming(true)
            }}
          >
            {t.delete}
          </Button>
        </div>
      </header>
      <DeckWords deckId={deck.id} language={deck.language} read={read} />
      {editing > 0 && (
        <Suspense fallback={null}>
          <DeckDialog key={editing} deck={deck} open={open} returnFocus={editButton} onClose={() => setOpen(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={confirming}
        title={t.deleteTitle({ n: deck.total })}
        description={t.deleteLead({ name: deck.name })}
        confirmLabel={t.delete}
        pendingLabel={t.deleting}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, errorTexts) : undefined}
        onConfirm={() => remove.mutate()}
        onClose={() => !remove.isPending && setConfirming(false)}
      />
    </div>
  )
}

import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { useEffect, useId, useState } from 'react'
import type { ImportJob } from '@/shared/imports'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { importRunning, useDecksCache } from './api'
import { deckImportMessages } from './messages'

type Messages = ReturnType<typeof deckImportMessages.get>
type Formats = ReturnType<typeof format.get>

/** Why an import failed, in the interface language (a damaged package's detail is the server's, in English). */
function importFailureText(error: ImportJob['error'], t: Messages): string {
  switch (error?.code) {
    case 'not_a_package':
      return t.notAPackage
    case 'newer_anki':
      return t.newerAnki
    case 'damaged':
      return t.damaged({ what: error.what ?? '' })
    case 'too_large':
      return t.tooLarge
    case 'cards_full':
      return t.cardsFull
    case 'decks_full':
      return t.decksFull
    case 'media_quota':
      return t.mediaQuota
    case 'interrupted':
      return t.interrupted
    default:
      return t.failed
  }
}

/** Where a job is, as one sentence: waiting, its progress, what it did, or why it failed. */
function importStatusText(job: ImportJob, t: Messages, formats: Formats): string {
  if (job.status === 'failed') return importFailureText(job.error, t)
  if (job.status === 'done') {
    return t.imported({
      notes: t.notes({ count: job.notes }),
      decks: t.decks({ count: job.decks.length }),
      reviews: t.reviews({ count: job.reviews }),
    })
  }
  if (job.status === 'queued') return t.waiting
  if (job.total === 0) return t.reading
  return t.progress({ done: formats.number(job.done), total: job.total })
}

/**
 * What a screen reader is told of a job: when it starts, at each quarter of its notes, and how it
 * ended — not each note. The text is the one shown at that moment.
 */
function useAnnouncement(job: ImportJob, text: string): string {
  const quarter = job.total > 0 ? Math.floor((job.done / job.total) * 4) : 0
  const step = job.status === 'running' ? `running-${job.total > 0 ? quarter : 'reading'}` : job.status
  const [said, setSaid] = useState({ step, text })
  // Stored from the render that reached the step (React's "state from the previous render").
  if (said.step !== step) setSaid({ step, text })
  return said.step === step ? said.text : text
}

/** The jobs seen running here: when one of them ends, the decks are read again (once). */
const followed = new Set<string>()

/** A job started here is followed from its `202`, even if it ends before it is first read. */
export const followImport = (id: string) => void followed.add(id)

/**
 * Reads the decks again when a job seen running ends (the live event does it too; polling alone
 * when the live stream is down).
 */
function useRefreshWhenEnded(job: ImportJob) {
  const decks = useDecksCache()
  const running = importRunning(job)
  useEffect(() => {
    if (running) followed.add(job.id)
    else if (followed.delete(job.id)) void decks.refresh()
  }, [running, job.id, decks])
}

/**
 * One import as the learner follows it: "Importing {done} of {total} notes…" with a progress
 * bar, then what it did (the decks it went into, as links; the notes skipped, behind a
 * disclosure) or why it failed. Announced politely, at its steps only.
 */
export function ImportStatus({ job, className }: { job: ImportJob; className?: string }) {
  const t = useStore(deckImportMessages)
  const formats = useStore(format)
  const labelId = useId()
  const text = importStatusText(job, t, formats)
  const announcement = useAnnouncement(job, text)
  useRefreshWhenEnded(job)
  const running = importRunning(job)
  const share = job.total > 0 ? Math.min(1, job.done / job.total) : 0

  return (
    <div className={cn('grid gap-2 text-sm', className)}>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {running ? (
        <>
          <p id={labelId} className="font-medium tabular-nums">
            {text}
          </p>
          <div
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={job.total || undefined}
            aria-valuenow={job.total > 0 ? job.done : undefined}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div
              className={cn('h-full rounded-full bg-primary transition-[width] duration-300', job.total === 0 && 'w-1/3 animate-pulse')}
              style={job.total > 0 ? { width: `${share * 100}%` } : undefined}
            />
          </div>
        </>
      ) : job.status === 'failed' ? (
        <p className="font-medium text-error">{text}</p>
      ) : (
        <>
          <p className="font-medium text-success">{text}</p>
          {job.decks.length > 0 && (
            <ul aria-label={t.importedDecks} className="grid gap-1">
              {job.decks.map((deck) => (
                <li key={deck.id} className="flex flex-wrap items-baseline gap-x-2">
                  <Link
                    to="/decks/$id"
                    params={{ id: String(deck.id) }}
                    className="font-medium break-words text-primary-text underline underline-offset-4"
                  >
                    {deck.name}
                  </Link>
                  <span className="text-muted-foreground tabular-nums">{t.deckCards({ count: deck.cards })}</span>
                </li>
              ))}
            </ul>
          )}
          {job.skipped.length > 0 && (
            <details className="rounded-md border px-3 py-2">
              <summary className="cursor-pointer font-medium">
                {t.skipped({ count: job.skipped.length })}
              </summary>
              {/* The server says which note and why in English. */}
              <ul lang="en" className="mt-2 grid max-h-48 gap-1 overflow-auto text-muted-foreground">
                {job.skipped.map((skip, index) => (
                  <li key={`${index}:${skip.note}`} className="wrap-anywhere">
                    <span className="font-medium text-foreground">{skip.note}</span>: {skip.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </div>
  )
}

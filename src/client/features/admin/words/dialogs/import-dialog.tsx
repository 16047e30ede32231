import { useStore } from '@nanostores/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, type RefObject, useId, useState } from 'react'
import { WORD_CSV_COLUMNS, type WordImportResult } from '@/shared/words'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Input } from '@/client/components/ui/field'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { wordKeys, wordsApi } from '@/client/features/admin/words/api'
import { DialogClose, DialogFrame } from './dialog-frame'
import { wordImportMessages } from './messages'

type Messages = ReturnType<typeof wordImportMessages.get>

/** A failure of the file itself in the interface language: not CSV (415), too large (413), unreadable (400). */
function FileProblem({ error }: { error: unknown }) {
  const t = useStore(wordImportMessages)
  const errors = useStore(apiErrorMessages)
  if (!(error instanceof ApiRequestError)) return <Alert variant="error">{errorMessage(error, errors)}</Alert>
  const sentence =
    error.status === 415
      ? t.notCsv
      : error.status === 413
        ? t.tooLarge
        : error.code === 'bad_request'
          ? t.unreadable
          : error.code === 'validation_failed'
            ? t.refusedOnImport
            : errorMessage(error, errors)
  return (
    <Alert variant="error">
      <p className="font-semibold">{sentence}</p>
      {/* The server's own words name the line at fault ("line 12 is not UTF-8"). */}
      {error.code === 'bad_request' && <p className="mt-1 wrap-break-word">{t.serverSays({ detail: error.message })}</p>}
    </Alert>
  )
}

/** The dry run's (or the import's) counts, then every refused row with its line and reason. */
function Report({ result, t }: { result: WordImportResult; t: Messages }) {
  const formats = useStore(format)
  const n = (value: number) => formats.number(value)
  const counts: [string, number][] = result.dryRun
    ? [
        [t.wouldCreate, result.created],
        [t.wouldUpdate, result.updated],
        [t.wouldKeep, result.unchanged],
      ]
    : [
        [t.created, result.created],
        [t.updated, result.updated],
        [t.unchanged, result.unchanged],
      ]
  const refused = result.refused.length
  return (
    <div className="grid gap-3" aria-live="polite">
      <h3 className="font-semibold">
        {result.dryRun ? t.reportTitle : t.doneTitle} · {t.rows({ count: result.rows })}
      </h3>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {counts.map(([label, value]) => (
          <div key={label} className="rounded-lg border p-2">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{n(value)}</dd>
          </div>
        ))}
      </dl>
      {refused > 0 ? (
        <>
          <Alert variant="error">{t.refusedTitle({ count: refused })}</Alert>
          <div className="rounded-lg border">
            <table className="w-full table-fixed text-sm">
              <caption className="sr-only">{t.refusedCaption}</caption>
              <thead className="bg-muted text-left">
                <tr>
                  <th scope="col" className="w-20 px-3 py-2 font-medium text-muted-foreground">
                    {t.line}
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium text-muted-foreground">
                    {t.reason}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {result.refused.map((row) => (
                  <tr key={row.line}>
                    <td className="px-3 py-2 align-top tabular-nums">{n(row.line)}</td>
                    <td className="px-3 py-2 wrap-anywhere">{row.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        result.dryRun && (
          <p className="text-sm text-success">
            {result.created + result.updated === 0 ? t.nothingToDo : t.allGood}
          </p>
        )
      )}
    </div>
  )
}

/**
 * "Import CSV": choose a file, a dry run reports what it would do (or which rows are refused, and
 * why), then Import writes it. Loaded when first opened.
 */
export default function ImportDialog({
  levelId,
  open,
  returnFocus,
  onClose,
}: {
  levelId: number
  open: boolean
  returnFocus: RefObject<HTMLElement | null>
  onClose: () => void
}) {
  const t = useStore(wordImportMessages)
  const formats = useStore(format)
  const queryClient = useQueryClient()
  const fileId = useId()
  const [file, setFile] = useState<File | null>(null)
  const [sent, setSent] = useState(0)
  const send = useMutation({
    mutationFn: ({ chosen, dryRun }: { chosen: File; dryRun: boolean }) => {
      setSent(0)
      return wordsApi.importFile(levelId, chosen, dryRun, setSent)
    },
    onSuccess: (result) => {
      if (result.dryRun) return
      void queryClient.invalidateQueries({ queryKey: wordKeys.all })
      const texts = wordImportMessages.get()
      toast({
        title: texts.imported({ created: formats.number(result.created), updated: formats.number(result.updated) }),
        variant: 'success',
      })
    },
  })
  const result = send.data
  const busy = send.isPending
  const checked = result?.dryRun === true && result.refused.length === 0 && result.created + result.updated > 0
  const done = result?.dryRun === false

  const check = (event: FormEvent) => {
    event.preventDefault()
    if (file) send.mutate({ chosen: file, dryRun: true })
  }

  return (
    <DialogFrame open={open} busy={busy} wide title={t.title} lead={t.lead} returnFocus={returnFocus} onClose={onClose}>
      <div className="grid gap-1 text-sm">
        <p>{t.columns}</p>
        <code className="rounded-md bg-muted px-2 py-1 font-mono text-xs break-all">{WORD_CSV_COLUMNS.join(',')}</code>
      </div>
      <form noValidate onSubmit={check} className="grid gap-4">
        <div className="grid gap-1.5">
          <label htmlFor={fileId} className="text-sm font-medium">
            {t.file}
          </label>
          <Input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${fileId}-hint`}
            disabled={busy}
            className="h-auto py-2 file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null)
              send.reset()
            }}
          />
          <p id={`${fileId}-hint`} className="text-xs text-muted-foreground">
            {t.fileHint}
          </p>
        </div>
        {busy && (
          <div
            role="progressbar"
            aria-label={t.progress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(sent * 100)}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(sent * 100)}%` }} />
          </div>
        )}
        {send.isError && <FileProblem error={send.error} />}
        {result && <Report result={result} t={t} />}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {done ? t.close : t.cancel}
            </Button>
          </DialogClose>
          {!done &&
            (checked ? (
              <Button disabled={busy} onClick={() => file && send.mutate({ chosen: file, dryRun: false })}>
                {busy ? t.importing : t.import}
              </Button>
            ) : (
              <Button type="submit" disabled={busy || !file}>
                {busy ? t.checking : t.check}
              </Button>
            ))}
        </div>
      </form>
    </DialogFrame>
  )
}

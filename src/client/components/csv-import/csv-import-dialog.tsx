import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { type ReactNode, type RefObject, useId, useState } from 'react'
import type { CsvRefusal } from '@/shared/csv'
import { DialogFrame } from '@/client/components/dialog-frame'
import { Button, buttonClass } from '@/client/components/ui/button'
import { ApiRequestError } from '@/client/lib/http-error'
import { CsvFailure } from './csv-failure'
import { csvImportMessages } from './messages'
import { RefusedRows, type ShownRefusal } from './refused-rows'

/** What every import of a CSV file answers (a dry run or the write): its rows, and those refused. */
export interface CsvImportOutcome {
  dryRun: boolean
  rows: number
  refused: readonly CsvRefusal[]
}

/**
 * The media type the file is sent as. Windows calls a `.csv` file `application/vnd.ms-excel`, and
 * some systems give none: a name ending in `.csv` is sent as CSV; anything else as what it is,
 * which the server refuses (415) and the dialog says so.
 */
function typeOf(file: File): string {
  if (file.type === 'text/csv' || /\.csv$/i.test(file.name)) return 'text/csv'
  return file.type || 'application/octet-stream'
}

/** The rows a refused import names in its error (`fields["line 12"]`), by line. */
function refusalsOf(error: unknown): ShownRefusal[] | undefined {
  if (!(error instanceof ApiRequestError) || error.code !== 'validation_failed' || !error.fields) return undefined
  return Object.entries(error.fields)
    .flatMap(([field, reasons]) => {
      const line = /^line (\d+)$/.exec(field)?.[1]
      return line ? [{ line: Number(line), reason: reasons.join(' ') }] : []
    })
    .sort((a, b) => a.line - b.line)
}

/**
 * Imports a CSV file in two steps (docs/decisions/0022-csv-files.md): "Check file" (a dry run:
 * the report, every refused row with its line and reason), then "Import", offered once the file
 * checked has no refused row and something to write. Choosing another file starts over.
 *
 * The page gives what differs: the texts about its file, the `upload` (its `…/csv` endpoint,
 * `dryRun` checks and writes nothing), the `report` of a dry run's or an import's counts, how
 * many rows an import would write (`writes`), and what follows an import (`onImported`: a toast,
 * fresh queries, maybe closing).
 */
export function CsvImportDialog<R extends CsvImportOutcome>({
  open = true,
  returnFocus,
  title,
  lead,
  columns,
  fileHint,
  tooLarge,
  upload,
  report: renderReport,
  writes,
  onImported,
  onClose,
}: {
  open?: boolean
  returnFocus?: RefObject<HTMLElement | null>
  title: string
  lead: string
  /** The columns the file has, under the lead. */
  columns: ReactNode
  /** The size (and rows) a file may have. */
  fileHint: string
  /** The answer to a file over the size limit (413). */
  tooLarge: string
  upload: (file: Blob, type: string, dryRun: boolean) => Promise<R>
  report: (report: R) => ReactNode
  writes: (report: R) => number
  onImported: (report: R) => void | Promise<void>
  onClose: () => void
}) {
  const t = useStore(csvImportMessages)
  const inputId = useId()
  const labelId = useId()
  const hintId = useId()
  const [file, setFile] = useState<File | null>(null)
  const [missing, setMissing] = useState(false)

  const check = useMutation({ mutationFn: (chosen: File) => upload(chosen, typeOf(chosen), true) })
  const write = useMutation({
    mutationFn: (chosen: File) => upload(chosen, typeOf(chosen), false),
    onSuccess: onImported,
  })
  const busy = check.isPending || write.isPending
  const shownReport = write.data ?? check.data
  const refusedNow = refusalsOf(write.error)
  const failure = check.error ?? (refusedNow ? null : write.error)
  const done = write.data !== undefined
  const ready = !done && check.data !== undefined && check.data.refused.length === 0 && writes(check.data) > 0

  return (
    <DialogFrame open={open} busy={busy} wide title={title} lead={lead} returnFocus={returnFocus} onClose={onClose}>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault()
          if (!file) return setMissing(true)
          write.reset()
          check.mutate(file)
        }}
      >
        <div className="grid gap-1 text-sm">{columns}</div>
        <div className="grid gap-1.5">
          <span id={labelId} className="text-sm font-medium">
            {t.file}
          </span>
          {/*
            The browser's own file button speaks the browser's language: it is hidden (still the
            control that takes focus and files), and a button-like label in the page's language
            opens it, with the chosen file's name beside it.
          */}
          <div className="flex flex-wrap items-center gap-3">
            <input
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              aria-labelledby={labelId}
              aria-describedby={hintId}
              aria-invalid={missing}
              disabled={busy}
              className="peer sr-only"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null)
                setMissing(false)
                check.reset()
                write.reset()
              }}
            />
            <label
              htmlFor={inputId}
              className={buttonClass({
                variant: 'outline',
                className:
                  'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-aria-invalid:border-error',
              })}
            >
              {t.chooseFile}
            </label>
            <span className="min-w-0 text-sm break-all text-muted-foreground">{file?.name ?? t.noFile}</span>
          </div>
          <p id={hintId} className="text-xs text-muted-foreground">
            {fileHint}
          </p>
          {missing && (
            <p role="alert" className="text-sm text-error">
              {t.chooseFirst}
            </p>
          )}
        </div>
        <div aria-live="polite" className="grid gap-3 empty:hidden">
          {shownReport && !refusedNow && (
            <>
              {renderReport(shownReport)}
              {shownReport.refused.length > 0 && (
                <>
                  <p className="text-sm font-medium text-error">{t.refusedTitle({ count: shownReport.refused.length })}</p>
                  <RefusedRows refused={shownReport.refused} />
                </>
              )}
            </>
          )}
          {refusedNow && (
            <>
              <p className="text-sm font-medium text-error">{t.changedSince}</p>
              <RefusedRows refused={refusedNow} />
            </>
          )}
        </div>
        {failure && <CsvFailure error={failure} tooLarge={tooLarge} />}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" disabled={busy} onClick={onClose}>
            {t.close}
          </Button>
          {!done && (
            <Button type="submit" variant={ready ? 'outline' : 'primary'} disabled={busy}>
              {check.isPending ? t.checking : t.check}
            </Button>
          )}
          {ready && file && (
            <Button disabled={busy} onClick={() => write.mutate(file)}>
              {write.isPending ? t.importing : t.import}
            </Button>
          )}
        </div>
      </form>
    </DialogFrame>
  )
}

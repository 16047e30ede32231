import { useStore } from '@nanostores/react'
import type { RefObject } from 'react'
import { WORD_CSV_COLUMNS, type WordImportResult } from '@/shared/words'
import { CsvImportDialog } from '@/client/components/csv-import/csv-import-dialog'
import { ImportCounts } from '@/client/components/csv-import/import-counts'
import { format } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { useWordsCache, wordsApi } from '@/client/features/admin/words/api'
import { wordImportMessages } from './messages'

/** The dry run's (or the import's) counts: what it would add, update and keep, or what it did. */
function Counts({ result }: { result: WordImportResult }) {
  const t = useStore(wordImportMessages)
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
  return (
    <div className="grid gap-3">
      <ImportCounts heading={`${result.dryRun ? t.reportTitle : t.doneTitle} · ${t.rows({ count: result.rows })}`} counts={counts} />
      {result.dryRun && result.refused.length === 0 && (
        <p className="text-sm text-success">{result.created + result.updated === 0 ? t.nothingToDo : t.allGood}</p>
      )}
    </div>
  )
}

/**
 * "Import CSV" of a level's words (the shared two-step dialog): the counts of what it would add,
 * update and keep; once imported, what it did, and the dialog stays open on it. Loaded when first
 * opened.
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
  const words = useWordsCache()
  return (
    <CsvImportDialog
      open={open}
      returnFocus={returnFocus}
      title={t.title}
      lead={t.lead}
      columns={
        <>
          <p>{t.columns}</p>
          <code className="rounded-md bg-muted px-2 py-1 font-mono text-xs break-all">{WORD_CSV_COLUMNS.join(',')}</code>
        </>
      }
      fileHint={t.fileHint}
      tooLarge={t.tooLarge}
      upload={(file, type, dryRun) => wordsApi.importFile(levelId, file, type, dryRun)}
      writes={(result) => result.created + result.updated}
      report={(result) => <Counts result={result} />}
      onImported={async (result) => {
        toast({
          title: t.imported({ created: formats.number(result.created), updated: formats.number(result.updated) }),
          variant: 'success',
        })
        await words.refresh()
      }}
      onClose={onClose}
    />
  )
}

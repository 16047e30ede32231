import { useStore } from '@nanostores/react'
import { CAN_DO_CSV_COLUMNS, type CsvImportReport } from '@/shared/can-do'
import { CsvImportDialog } from '@/client/components/csv-import/csv-import-dialog'
import { toast } from '@/client/lib/toast'
import { statementsApi, useStatementsCache } from './api'
import { csvImportMessages } from './messages'

/**
 * Imports a CSV file of statements (the shared two-step dialog): the rows read, what importing
 * adds; once imported, a toast and the dialog closes.
 */
export default function ImportDialog({ onClose }: { onClose: () => void }) {
  const t = useStore(csvImportMessages)
  const statements = useStatementsCache()
  return (
    <CsvImportDialog
      title={t.title}
      lead={t.lead}
      columns={<p>{t.columns({ columns: CAN_DO_CSV_COLUMNS.join(', ') })}</p>}
      fileHint={t.fileHint}
      tooLarge={t.tooLarge}
      upload={statementsApi.importCsv}
      writes={(report: CsvImportReport) => report.rows}
      report={(report) => (
        <p className="text-sm">
          {t.rowsRead({ count: report.rows })}{' '}
          {report.dryRun &&
            report.refused.length === 0 &&
            (report.rows > 0 ? t.wouldCreate({ count: report.rows }) : t.nothingToAdd)}
        </p>
      )}
      onImported={async (report) => {
        toast({ title: t.imported({ count: report.created }), variant: 'success' })
        onClose()
        await statements.refresh()
      }}
      onClose={onClose}
    />
  )
}

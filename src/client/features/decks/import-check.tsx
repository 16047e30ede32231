import { useStore } from '@nanostores/react'
import type { WordImportResult } from '@/shared/words'
import { ImportCounts } from '@/client/components/csv-import/import-counts'
import { RefusedRows } from '@/client/components/csv-import/refused-rows'
import { deckImportMessages } from './messages'

/**
 * "Check file" of a CSV file for a deck (a dry run): what it would add, change and leave unchanged,
 * and every row the import would skip, with its line and why (in the interface language).
 */
export function ImportCheck({ result }: { result: WordImportResult }) {
  const t = useStore(deckImportMessages)
  return (
    <div className="grid gap-3">
      <ImportCounts
        heading={t.checkTitle({ rows: t.checkRows({ count: result.rows }) })}
        counts={[
          [t.wouldAdd, result.created],
          [t.wouldChange, result.updated],
          [t.wouldKeep, result.unchanged],
        ]}
      />
      {result.refused.length === 0 ? (
        <p className="text-sm text-success">{t.checkAllGood}</p>
      ) : (
        <>
          <p className="text-sm font-medium">{t.wouldSkip({ count: result.refused.length })}</p>
          <RefusedRows refused={result.refused} caption={t.skippedCaption} />
        </>
      )}
    </div>
  )
}

import { useStore } from '@nanostores/react'
import type { DeckCounts } from '@/shared/decks'
import { format } from '@/client/lib/i18n'
import { decksMessages } from './messages'

/** "{new} new · {due} due · {total} cards", in the interface language's numbers. */
export function useCountsText() {
  const t = useStore(decksMessages)
  const formats = useStore(format)
  return (counts: DeckCounts) => t.counts({ new: formats.number(counts.new), due: formats.number(counts.due), total: counts.total })
}

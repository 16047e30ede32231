import { useStore } from '@nanostores/react'
import { createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures } from '@tanstack/react-table'
import { createContext, useContext } from 'react'
import type { Word } from '@/shared/words'
import { partOfSpeechMessages } from '@/client/components/part-of-speech/messages'
import { TranslationsCell, WordRowActions } from '@/client/components/words/word-cells'
import { wordsAdminMessages } from './messages'

// Searching and paging happen on the server; the table keeps their state (from the URL). Words
// come in the order they were added: no column sorts.
export const features = tableFeatures({ rowSortingFeature, rowPaginationFeature })
const column = createColumnHelper<typeof features, Word>()

/** What a row's buttons ask of the section (the dialogs live there). */
export interface WordActions {
  edit: (word: Word) => void
  remove: (word: Word) => void
}
export const WordActionsContext = createContext<WordActions>({ edit: () => undefined, remove: () => undefined })

/** The translation in the interface language first, the other under it. */
function TranslationCell({ word }: { word: Word }) {
  return (
    <TranslationsCell word={word}>
      {/* A phone has no room for a column of buttons: they come under the translation. */}
      <ActionsCell word={word} className="mt-2 sm:hidden" />
    </TranslationsCell>
  )
}

function PartOfSpeechCell({ word }: { word: Word }) {
  const pos = useStore(partOfSpeechMessages)
  return word.partOfSpeech ? pos[word.partOfSpeech] : <span className="text-muted-foreground">—</span>
}

function ActionsCell({ word, className }: { word: Word; className?: string }) {
  const t = useStore(wordsAdminMessages)
  const actions = useContext(WordActionsContext)
  return (
    <WordRowActions texts={t} text={word.text} onEdit={() => actions.edit(word)} onDelete={() => actions.remove(word)} className={className} />
  )
}

export const columns = column.columns([
  column.accessor('text', {
    cell: (info) => (
      <span lang={info.row.original.language} className="font-semibold break-words">
        {info.getValue()}
      </span>
    ),
  }),
  column.display({ id: 'translation', cell: (info) => <TranslationCell word={info.row.original} /> }),
  column.accessor('partOfSpeech', { cell: (info) => <PartOfSpeechCell word={info.row.original} /> }),
  column.accessor('example', {
    cell: (info) => <span className="line-clamp-2 text-muted-foreground">{info.getValue()}</span>,
  }),
  column.display({ id: 'actions', cell: (info) => <ActionsCell word={info.row.original} className="justify-end sm:flex-nowrap" /> }),
])

export type ColumnId = 'text' | 'translation' | 'partOfSpeech' | 'example' | 'actions'

/** Narrow screens show fewer columns. */
export const columnClass: Record<ColumnId, string> = {
  text: 'align-top',
  translation: 'align-top',
  partOfSpeech: 'hidden w-32 align-top sm:table-cell',
  example: 'hidden align-top lg:table-cell',
  // As narrow as its buttons; on a phone they are in the translation's cell.
  actions: 'hidden w-px text-right align-top whitespace-nowrap sm:table-cell',
}

export function columnLabel(id: ColumnId, t: ReturnType<typeof wordsAdminMessages.get>): string {
  return t[id]
}

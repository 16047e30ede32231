import { useStore } from '@nanostores/react'
import { createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures } from '@tanstack/react-table'
import { createContext, useContext } from 'react'
import type { DeckWord } from '@/shared/decks'
import { TranslationsCell, WordRowActions } from '@/client/components/words/word-cells'
import { format } from '@/client/lib/i18n'
import { deckWordsMessages } from './messages'

// Searching, sorting and paging happen on the server; the table keeps their state (from the URL).
export const features = tableFeatures({ rowSortingFeature, rowPaginationFeature })
const column = createColumnHelper<typeof features, DeckWord>()

/** What a row's buttons ask of the section (the dialogs live there). */
export interface DeckWordActions {
  edit: (word: DeckWord) => void
  remove: (word: DeckWord) => void
}
export const DeckWordActionsContext = createContext<DeckWordActions>({ edit: () => undefined, remove: () => undefined })

/** The deck's language, for the words' own text (a screen reader reads it in its language). */
export const DeckLanguageContext = createContext('')

function WordCell({ word }: { word: DeckWord }) {
  const t = useStore(deckWordsMessages)
  const language = useContext(DeckLanguageContext)
  return (
    <div className="grid justify-items-start gap-1">
      <span lang={language || undefined} className="font-semibold break-words">
        {word.text}
      </span>
      {word.kind === 'reversed' && (
        <span className="rounded-full border px-2 py-0.5 text-xs whitespace-nowrap text-muted-foreground">{t.bothWays}</span>
      )}
    </div>
  )
}

/** The translation in the interface language first, the other under it when it differs. */
function TranslationCell({ word }: { word: DeckWord }) {
  return (
    <TranslationsCell word={word} once>
      {/* A phone has no room for a column of buttons: they come under the translation. */}
      <ActionsCell word={word} className="mt-2 sm:hidden" />
    </TranslationsCell>
  )
}

function TagsCell({ word }: { word: DeckWord }) {
  if (word.tags.length === 0) return <span className="text-muted-foreground">—</span>
  return (
    <ul className="flex flex-wrap gap-1">
      {word.tags.map((tag) => (
        <li key={tag} className="rounded-md bg-muted px-1.5 py-0.5 text-xs break-all">
          {tag}
        </li>
      ))}
    </ul>
  )
}

function DueCell({ word }: { word: DeckWord }) {
  const t = useStore(deckWordsMessages)
  const formats = useStore(format)
  if (!word.due) return <span className="text-muted-foreground">{t.isNew}</span>
  return (
    <time dateTime={word.due} className="whitespace-nowrap">
      {formats.time(new Date(word.due), { dateStyle: 'medium' })}
    </time>
  )
}

function CreatedCell({ word }: { word: DeckWord }) {
  const formats = useStore(format)
  return (
    <time dateTime={word.createdAt} className="whitespace-nowrap">
      {formats.time(new Date(word.createdAt), { dateStyle: 'medium' })}
    </time>
  )
}

function ActionsCell({ word, className }: { word: DeckWord; className?: string }) {
  const t = useStore(deckWordsMessages)
  const actions = useContext(DeckWordActionsContext)
  return (
    <WordRowActions texts={t} text={word.text} onEdit={() => actions.edit(word)} onDelete={() => actions.remove(word)} className={className} />
  )
}

export const columns = column.columns([
  column.accessor('text', { cell: (info) => <WordCell word={info.row.original} /> }),
  column.display({ id: 'translation', cell: (info) => <TranslationCell word={info.row.original} /> }),
  column.accessor('tags', { enableSorting: false, cell: (info) => <TagsCell word={info.row.original} /> }),
  column.accessor('due', { cell: (info) => <DueCell word={info.row.original} /> }),
  column.accessor('createdAt', { id: 'created', sortDescFirst: true, cell: (info) => <CreatedCell word={info.row.original} /> }),
  column.display({ id: 'actions', cell: (info) => <ActionsCell word={info.row.original} className="justify-end sm:flex-nowrap" /> }),
])

export type ColumnId = 'text' | 'translation' | 'tags' | 'due' | 'created' | 'actions'

/** Narrow screens show fewer columns. */
export const columnClass: Record<ColumnId, string> = {
  text: 'align-top',
  translation: 'align-top',
  tags: 'hidden align-top lg:table-cell',
  due: 'hidden w-36 align-top md:table-cell',
  created: 'hidden w-36 align-top lg:table-cell',
  // As narrow as its buttons; on a phone they are in the translation's cell.
  actions: 'hidden w-px text-right align-top whitespace-nowrap sm:table-cell',
}

export function columnLabel(id: ColumnId, t: ReturnType<typeof deckWordsMessages.get>): string {
  return t[id]
}

import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures } from '@tanstack/react-table'
import { createContext, useContext } from 'react'
import type { LanguageLevel } from '@/shared/levels'
import { Button } from '@/client/components/ui/button'
import { format } from '@/client/lib/i18n'
import type { DeletableLevel } from './delete-level-dialog'
import { levelsAdminMessages } from './messages'

// Sorting, searching and paging happen on the server; the table keeps their state (from the URL).
export const features = tableFeatures({ rowSortingFeature, rowPaginationFeature })
const column = createColumnHelper<typeof features, LanguageLevel>()

/** Asks the row's page to confirm a deletion (the dialog lives on the page). */
export const DeleteContext = createContext<(level: DeletableLevel) => void>(() => undefined)

function UpdatedCell({ value }: { value: string }) {
  const formats = useStore(format)
  return (
    <time dateTime={value} className="whitespace-nowrap">
      {formats.time(new Date(value), { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  )
}

function PositionCell({ value }: { value: number }) {
  const formats = useStore(format)
  return formats.number(value + 1)
}

function DeleteCell({ level }: { level: LanguageLevel }) {
  const t = useStore(levelsAdminMessages)
  const askDelete = useContext(DeleteContext)
  return (
    // Above the row's link, which covers the row.
    <Button
      variant="outline"
      size="sm"
      className="relative z-10 text-error"
      aria-label={t.deleteNamed({ code: level.code })}
      onClick={() => askDelete(level)}
    >
      {t.delete}
    </Button>
  )
}

export const columns = column.columns([
  column.accessor('position', { cell: (info) => <PositionCell value={info.getValue()} /> }),
  column.accessor('code', {
    cell: (info) => (
      <Link
        to="/admin/language-levels/$id"
        params={{ id: String(info.row.original.id) }}
        // The link covers the whole row, so a click anywhere on it opens the level.
        className="font-mono font-semibold break-all text-primary-text underline-offset-4 after:absolute after:inset-0 hover:underline"
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('name', { cell: (info) => <span className="break-words">{info.getValue()}</span> }),
  column.accessor('description', {
    enableSorting: false,
    cell: (info) => <span className="line-clamp-2 text-muted-foreground">{info.getValue()}</span>,
  }),
  column.accessor('updatedAt', { sortDescFirst: true, cell: (info) => <UpdatedCell value={info.getValue()} /> }),
  column.display({ id: 'actions', cell: (info) => <DeleteCell level={info.row.original} /> }),
])

export type ColumnId = 'position' | 'code' | 'name' | 'description' | 'updatedAt' | 'actions'

/** Narrow screens show fewer columns. */
export const columnClass: Record<ColumnId, string> = {
  position: 'hidden w-20 text-right tabular-nums sm:table-cell',
  code: 'w-28',
  name: 'min-w-32',
  description: 'hidden md:table-cell',
  updatedAt: 'hidden w-48 lg:table-cell',
  actions: 'w-24 text-right',
}

export function columnLabel(id: ColumnId, t: ReturnType<typeof levelsAdminMessages.get>): string {
  if (id === 'actions') return t.actions
  return id === 'updatedAt' ? t.updated : t[id]
}

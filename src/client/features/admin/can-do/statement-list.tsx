import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { useId, useLayoutEffect, useRef, useState } from 'react'
import type { CanDoStatement, CanDoStatementList, Skill } from '@/shared/can-do'
import type { LanguageLevel } from '@/shared/levels'
import { Button } from '@/client/components/ui/button'
import { ChevronRightIcon } from '@/client/components/ui/icons'
import { cn } from '@/client/lib/cn'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { skillMessages } from '@/client/components/skills/messages'
import { toast } from '@/client/lib/toast'
import { type StatementListParams, statementsApi, useStatementsCache } from './api'
import { canDoAdminMessages } from './messages'

interface Cell {
  skill: Skill
  items: CanDoStatement[]
}

interface LevelGroup {
  levelId: number
  code: string
  name: string
  cells: Cell[]
  count: number
}

/**
 * The statements by level, then skill: in the server's order (levels in their order, skills in
 * SKILLS order, positions). A level's name comes from the list of levels when it has it.
 */
function groupsOf(items: readonly CanDoStatement[], levels: readonly LanguageLevel[]): LevelGroup[] {
  const groups: LevelGroup[] = []
  for (const item of items) {
    let group = groups.at(-1)
    if (group?.levelId !== item.levelId) {
      const level = levels.find((candidate) => candidate.id === item.levelId)
      group = { levelId: item.levelId, code: item.levelCode, name: level?.name ?? '', cells: [], count: 0 }
      groups.push(group)
    }
    let cell = group.cells.at(-1)
    if (cell?.skill !== item.skill) {
      cell = { skill: item.skill, items: [] }
      group.cells.push(cell)
    }
    cell.items.push(item)
    group.count++
  }
  return groups
}

type Direction = 'up' | 'down'
const moveId = (id: number, direction: Direction) => `can-do-move-${direction}-${id}`

/** One cell's statements with the order of `ids`: the list as it is once the move is saved. */
function withOrder(list: CanDoStatementList, ids: readonly number[]): CanDoStatementList {
  const rank = new Map(ids.map((id, index) => [id, index]))
  const items = [...list.items]
  // The cell's places in the list, filled in the new order.
  const places = items.flatMap((item, index) => (rank.has(item.id) ? [index] : []))
  const moved = [...ids].flatMap((id) => list.items.find((item) => item.id === id) ?? [])
  places.forEach((place, index) => {
    const item = moved[index]
    if (item) items[place] = { ...item, position: index }
  })
  return { ...list, items }
}

/**
 * Every statement shown, grouped by level and skill. Within a cell, "Move up" and "Move down" save
 * the new order at once (shown before the server answers; a refusal reads the list again); focus
 * stays on the button pressed and a status line says where the statement went. Not offered while a
 * search shows only part of a cell.
 */
export function StatementList({
  list,
  params,
  levels,
  canReorder,
  onEdit,
  onDelete,
}: {
  list: CanDoStatementList
  params: StatementListParams
  levels: readonly LanguageLevel[]
  canReorder: boolean
  onEdit: (statement: CanDoStatement) => void
  onDelete: (statement: CanDoStatement) => void
}) {
  const t = useStore(canDoAdminMessages)
  const skills = useStore(skillMessages)
  const errors = useStore(apiErrorMessages)
  const formats = useStore(format)
  const statements = useStatementsCache()
  const [announcement, setAnnouncement] = useState('')
  const focusAfter = useRef<{ id: number; direction: Direction } | null>(null)
  const baseId = useId()

  const reorder = useMutation({
    mutationFn: (cell: { levelId: number; skill: Skill; ids: number[] }) =>
      statementsApi.reorder(cell.levelId, cell.skill, cell.ids),
    onError: (error) => {
      const stale = error instanceof ApiRequestError && error.status === 409
      toast({ title: stale ? canDoAdminMessages.get().orderChanged : errorMessage(error, errors), variant: 'error' })
    },
    onSettled: () => statements.refresh(),
  })

  const move = (levelId: number, cell: Cell, index: number, direction: Direction) => {
    const to = direction === 'up' ? index - 1 : index + 1
    const item = cell.items[index]
    const other = cell.items[to]
    if (!item || !other) return
    const ids = cell.items.map((statement) => statement.id)
    ids[index] = other.id
    ids[to] = item.id
    statements.reorder(params, (old) => withOrder(old, ids))
    focusAfter.current = { id: item.id, direction }
    setAnnouncement(t.moved({ position: formats.number(to + 1), total: formats.number(ids.length) }))
    reorder.mutate({ levelId, skill: cell.skill, ids })
  }

  // The moved statement's row was put elsewhere in the page: its button gets the focus back.
  useLayoutEffect(() => {
    const target = focusAfter.current
    if (!target) return
    focusAfter.current = null
    document.getElementById(moveId(target.id, target.direction))?.focus()
  }, [list])

  const groups = groupsOf(list.items, levels)
  return (
    <div className="grid gap-6">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {groups.map((group) => {
        const levelHeading = `${baseId}-level-${group.levelId}`
        return (
          <section
            key={group.levelId}
            aria-labelledby={levelHeading}
            className="min-w-0 rounded-xl border bg-card p-4 sm:p-6"
          >
            <h2 id={levelHeading} className="flex flex-wrap items-baseline gap-x-3 text-lg font-semibold">
              <span className="font-mono text-primary-text">{group.code}</span>
              {group.name && <span>{group.name}</span>}
              <span className="text-sm font-normal text-muted-foreground">{t.count({ count: group.count })}</span>
            </h2>
            {group.cells.map((cell) => {
              const cellHeading = `${levelHeading}-${cell.skill}`
              return (
                <div key={cell.skill} className="mt-5">
                  <h3 id={cellHeading} className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
                    {skills[cell.skill]}
                  </h3>
                  <ol aria-labelledby={`${levelHeading} ${cellHeading}`} className="mt-2 divide-y rounded-lg border">
                    {cell.items.map((statement, index) => (
                      <StatementRow
                        key={statement.id}
                        statement={statement}
                        position={formats.number(index + 1)}
                        first={index === 0}
                        last={index === cell.items.length - 1}
                        canReorder={canReorder}
                        onMove={(direction) => move(group.levelId, cell, index, direction)}
                        onEdit={() => onEdit(statement)}
                        onDelete={() => onDelete(statement)}
                      />
                    ))}
                  </ol>
                </div>
              )
            })}
          </section>
        )
      })}
    </div>
  )
}

function StatementRow({
  statement,
  position,
  first,
  last,
  canReorder,
  onMove,
  onEdit,
  onDelete,
}: {
  statement: CanDoStatement
  position: string
  first: boolean
  last: boolean
  canReorder: boolean
  onMove: (direction: Direction) => void
  onEdit: () => void
  onDelete: () => void
}) {
  const t = useStore(canDoAdminMessages)
  const textId = useId()
  // Off but focusable (`aria-disabled`): pressing "Move up" until the top keeps focus on it.
  const moveButton = (direction: Direction, off: boolean) => (
    <Button
      id={moveId(statement.id, direction)}
      variant="ghost"
      size="icon"
      className={cn('size-9', off && 'cursor-not-allowed opacity-40 hover:bg-transparent')}
      aria-label={direction === 'up' ? t.moveUp : t.moveDown}
      aria-describedby={textId}
      aria-disabled={off || undefined}
      onClick={() => !off && onMove(direction)}
    >
      <ChevronRightIcon className={cn('size-4', direction === 'up' ? '-rotate-90' : 'rotate-90')} />
    </Button>
  )
  return (
    <li className="grid grid-cols-[1.75rem_1fr] gap-x-3 gap-y-2 p-3 sm:grid-cols-[2rem_1fr_auto] sm:items-start">
      <span className="pt-0.5 text-right text-sm text-muted-foreground tabular-nums">{position}</span>
      <div className="min-w-0 text-sm">
        <p id={textId} lang="en" className="break-words">
          {statement.text.en}
        </p>
        <p lang="ru" className="mt-1 break-words text-muted-foreground">
          {statement.text.ru}
        </p>
      </div>
      <div className="col-start-2 flex flex-wrap items-center gap-1 sm:col-start-3 sm:justify-end">
        {canReorder && (
          <>
            {moveButton('up', first)}
            {moveButton('down', last)}
          </>
        )}
        <Button variant="outline" size="sm" aria-describedby={textId} onClick={onEdit}>
          {t.edit}
        </Button>
        <Button variant="outline" size="sm" className="text-error" aria-describedby={textId} onClick={onDelete}>
          {t.delete}
        </Button>
      </div>
    </li>
  )
}

import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  type UniqueIdentifier,
  closestCenter,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useStore } from '@nanostores/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type SVGProps, useEffect, useRef, useState } from 'react'
import type { LanguageLevel } from '@/shared/levels'
import { Button } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { Icon } from '@/client/components/ui/icons'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { orderedLevelsQuery } from '@/client/api/levels'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { levelsApi } from './api'
import { useLevelsCache } from './level-cache'
import { levelsAdminMessages } from './messages'

/** Levels move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 })

/**
 * The order being made: the ids the admin arranged, reconciled with the levels the server has now
 * (a level added meanwhile goes last, a deleted one leaves).
 */
function arrange(levels: readonly LanguageLevel[], order: readonly number[] | null): LanguageLevel[] {
  if (!order) return [...levels]
  const byId = new Map(levels.map((level) => [level.id, level]))
  const arranged = order.flatMap((id) => byId.get(id) ?? [])
  const placed = new Set(order)
  return [...arranged, ...levels.filter((level) => !placed.has(level.id))]
}

/**
 * Reordering mode: every level in position order, moved by dragging its handle or by keyboard
 * (dnd-kit's keyboard sensor, with announcements for screen readers), then saved at once.
 */
export default function ReorderLevels({ onDone }: { onDone: () => void }) {
  const t = useStore(levelsAdminMessages)
  const ui = useStore(uiMessages)
  const formats = useStore(format)
  const cache = useLevelsCache()
  const query = useQuery(orderedLevelsQuery())
  const headingRef = useRef<HTMLHeadingElement>(null)
  // Entering the mode moves focus to it.
  useEffect(() => headingRef.current?.focus(), [])
  const [order, setOrder] = useState<number[] | null>(null)
  const levels = arrange(query.data ?? [], order)
  const changed = order !== null && levels.some((level, index) => level.id !== query.data?.[index]?.id)

  const save = useMutation({
    mutationFn: (ids: number[]) => levelsApi.reorder(ids),
    onSuccess: async () => {
      toast({ title: levelsAdminMessages.get().orderSaved, variant: 'success' })
      await cache.refresh()
      onDone()
    },
  })

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )

  const total = formats.number(levels.length)
  const place = (id: UniqueIdentifier | undefined) => {
    const index = levels.findIndex((level) => level.id === id)
    return { code: levels[index]?.code ?? '', position: formats.number(index + 1), total }
  }
  const codeOf = (id: UniqueIdentifier) => levels.find((level) => level.id === id)?.code ?? ''
  // Picking up a level puts it "over" its own place: that is not a move worth announcing.
  const moved = useRef(false)

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const from = levels.findIndex((level) => level.id === active.id)
    const to = levels.findIndex((level) => level.id === over.id)
    if (from < 0 || to < 0) return
    setOrder(arrayMove(levels, from, to).map((level) => level.id))
    save.reset()
  }

  const reload = async () => {
    save.reset()
    setOrder(null)
    await query.refetch()
  }

  return (
    <section aria-labelledby="reorder-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div>
        <h2 id="reorder-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {t.reorderTitle}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">{t.reorderLead}</p>
      </div>
      {query.isPending && <Skeleton className="h-48 w-full" />}
      {query.isError && (
        <ErrorAlert error={query.error} onRetry={query.refetch} />
      )}
      {query.data && levels.length === 0 && <EmptyState title={ui.noData} hint={t.reorderEmptyHint} />}
      {levels.length > 0 && (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          modifiers={[verticalOnly]}
          onDragEnd={onDragEnd}
          accessibility={{
            screenReaderInstructions: { draggable: t.dragInstructions },
            announcements: {
              onDragStart: ({ active }) => {
                moved.current = false
                return t.dragStart(place(active.id))
              },
              onDragOver: ({ active, over }) => {
                if (!over || (over.id === active.id && !moved.current)) return undefined
                moved.current = true
                return t.dragOver({ ...place(over.id), code: codeOf(active.id) })
              },
              onDragEnd: ({ active, over }) =>
                t.dragEnd({ ...place(over?.id ?? active.id), code: codeOf(active.id) }),
              onDragCancel: ({ active }) => t.dragCancel(place(active.id)),
            },
          }}
        >
          <SortableContext items={levels.map((level) => level.id)} strategy={verticalListSortingStrategy}>
            <ol className="grid gap-2" aria-label={t.reorderTitle}>
              {levels.map((level, index) => (
                <SortableLevel key={level.id} level={level} position={formats.number(index + 1)} />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
      {save.isError && (
        <ErrorAlert error={save.error} onRetry={reload} retryLabel={t.reload} />
      )}
      <div className="flex flex-wrap gap-2">
        <Button disabled={!changed || save.isPending} onClick={() => save.mutate(levels.map((level) => level.id))}>
          {save.isPending ? t.savingOrder : t.saveOrder}
        </Button>
        <Button variant="outline" disabled={save.isPending} onClick={onDone}>
          {t.cancel}
        </Button>
      </div>
    </section>
  )
}

function SortableLevel({ level, position }: { level: LanguageLevel; position: string }) {
  const t = useStore(levelsAdminMessages)
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: level.id })
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        'flex items-center gap-3 rounded-lg border bg-background p-2 pr-4',
        isDragging && 'relative z-10 shadow-lg ring-2 ring-ring',
      )}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t.moveLevel({ code: level.code, name: level.name })}
        className="flex size-10 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground active:cursor-grabbing"
      >
        <GripIcon />
      </button>
      <span className="w-6 shrink-0 text-right text-sm text-muted-foreground tabular-nums sm:w-8">{position}</span>
      <span className="w-16 shrink-0 font-mono font-semibold break-all sm:w-24">{level.code}</span>
      <span className="min-w-0 break-words">{level.name}</span>
    </li>
  )
}

const GripIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <circle cx="9" cy="6" r="1" />
    <circle cx="15" cy="6" r="1" />
    <circle cx="9" cy="12" r="1" />
    <circle cx="15" cy="12" r="1" />
    <circle cx="9" cy="18" r="1" />
    <circle cx="15" cy="18" r="1" />
  </Icon>
)

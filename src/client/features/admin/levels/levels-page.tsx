import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { Suspense, lazy, useEffect, useRef, useState } from 'react'
import { Button, buttonClass } from '@/client/components/ui/button'
import { PlusIcon } from '@/client/components/ui/icons'
import { PageHeader } from '@/client/components/page'
import { usePageTitle } from '@/client/lib/page-title'
import { focusPageHeading } from '@/client/lib/route-focus'
import { useLevelsCache } from './level-cache'
import { type DeletableLevel, DeleteLevelDialog } from './delete-level-dialog'
import { LevelsTable } from './levels-table'
import { levelsAdminMessages } from './messages'
import { Skeleton } from '@/client/components/ui/skeleton'

// Drag and drop (dnd-kit) loads when the mode is opened, not with the table.
const loadReorder = () => import('./reorder-levels')
const ReorderLevels = lazy(loadReorder)

/**
 * `/admin/language-levels` (admin): the table of levels (search, sort, pages in the URL), new,
 * open, delete, a reordering mode.
 */
export function LevelsAdminPage() {
  const t = useStore(levelsAdminMessages)
  const levels = useLevelsCache()
  const [reordering, setReordering] = useState(false)
  const [deleting, setDeleting] = useState<DeletableLevel | null>(null)
  const reorderButton = useRef<HTMLButtonElement>(null)
  usePageTitle(t.title)

  // Leaving the mode, focus goes back to the button that opened it, once it is shown again.
  const leftReordering = useRef(false)
  const stopReordering = () => {
    leftReordering.current = true
    setReordering(false)
  }
  useEffect(() => {
    if (reordering || !leftReordering.current) return
    leftReordering.current = false
    reorderButton.current?.focus()
  }, [reordering])

  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader title={t.title} lead={t.lead}>
        {!reordering && (
          <div className="flex flex-wrap gap-2">
            <Button
              ref={reorderButton}
              variant="outline"
              onPointerEnter={() => void loadReorder()}
              onFocus={() => void loadReorder()}
              onClick={() => setReordering(true)}
            >
              {t.reorder}
            </Button>
            <Link to="/admin/language-levels/create" className={buttonClass()}>
              <PlusIcon className="size-4" />
              {t.newLevel}
            </Link>
          </div>
        )}
      </PageHeader>
      {reordering ? (
        <Suspense fallback={<Skeleton className="h-64 w-full" />}>
          <ReorderLevels onDone={stopReordering} />
        </Suspense>
      ) : (
        <LevelsTable onDelete={setDeleting} />
      )}
      <DeleteLevelDialog
        level={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={async () => {
          setDeleting(null)
          await levels.refresh()
          // The row and its button are gone: focus goes to the page's heading.
          focusPageHeading()
        }}
      />
    </div>
  )
}

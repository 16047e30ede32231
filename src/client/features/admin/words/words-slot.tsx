import { useStore } from '@nanostores/react'
import { Suspense, lazy, useEffect, useRef, useState } from 'react'
import { Card } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { wordsAdminMessages } from './messages'

// The table (TanStack Table, the shared table parts) comes when the section is scrolled to, not
// with the level's page: most visits edit the level above it.
const WordsSection = lazy(() => import('./words-section'))

/**
 * Until then: the section's heading, and room for the table — still (nothing is loading yet), then
 * skeleton rows while its code comes.
 */
function Placeholder({ busy }: { busy: boolean }) {
  const t = useStore(wordsAdminMessages)
  return (
    <Card title={t.title} lead={t.lead}>
      {busy ? (
        <div className="grid gap-3" aria-busy="true">
          <p role="status" className="sr-only">
            {t.loading}
          </p>
          <Skeleton className="h-10 w-full max-w-88" />
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} className="h-8 w-full" />
          ))}
        </div>
      ) : (
        <div className="h-56 rounded-md bg-muted/50" />
      )}
    </Card>
  )
}

/**
 * The "Words" section of a level's page, loaded once it comes into view (or at once where
 * there is no IntersectionObserver).
 */
export function WordsSlot({ levelId }: { levelId: number }) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined')
  const anchor = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const target = anchor.current
    if (near || !target) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true)
      },
      { rootMargin: '0px' },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [near])
  if (!near) {
    return (
      <div ref={anchor}>
        <Placeholder busy={false} />
      </div>
    )
  }
  return (
    <Suspense fallback={<Placeholder busy />}>
      <WordsSection levelId={levelId} />
    </Suspense>
  )
}

import { cn } from '@/client/lib/cn'

/** A placeholder block that keeps the layout steady while data loads. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} />
}

import type { ReactNode } from 'react'
import { PageHeading } from '@/client/components/ui/page-heading'
import { cn } from '@/client/lib/cn'
import { usePageTitle } from '@/client/lib/page-title'

/** A page's heading and document title. */
export function Page({
  title,
  lead,
  children,
}: {
  title: string
  lead?: ReactNode
  children?: ReactNode
}) {
  usePageTitle(title)
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</PageHeading>
      {lead && <p className="mt-3 text-lg text-muted-foreground">{lead}</p>}
      {children && <div className="mt-8">{children}</div>}
    </article>
  )
}

/**
 * A page's header: its heading and lead (`className` for their block, e.g. a narrower one), with
 * the page's actions (`children`) at the end of the line, or under them on a narrow screen.
 */
export function PageHeader({ title, lead, className, children }: { title: string; lead: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-4">
      <div className={cn('min-w-0', className)}>
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{lead}</p>
      </div>
      {children}
    </header>
  )
}

import type { ReactNode } from 'react'
import { PageHeading } from '@/client/components/ui/page-heading'
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

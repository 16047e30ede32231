import type { ReactNode } from 'react'
import { usePageTitle } from '../../lib/page-title'

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
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {lead && <p className="mt-3 text-lg text-muted-foreground">{lead}</p>}
      {children && <div className="mt-8">{children}</div>}
    </article>
  )
}

import type { ReactNode } from 'react'
import { PageHeading } from '@/client/components/ui/page-heading'
import { usePageTitle } from '@/client/lib/page-title'

/** The frame of the sign-in pages: a narrow card with a heading, a lead and links below. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string
  lead?: ReactNode
  children?: ReactNode
  footer?: ReactNode
}) {
  usePageTitle(title)
  return (
    <article className="mx-auto w-full max-w-md">
      <div className="rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <PageHeading className="text-2xl font-bold tracking-tight">{title}</PageHeading>
        {lead && <p className="mt-2 wrap-break-word text-muted-foreground">{lead}</p>}
        {children && <div className="mt-6 grid gap-4">{children}</div>}
      </div>
      {footer && <div className="mt-6 grid gap-2 text-center text-sm">{footer}</div>}
    </article>
  )
}

/** The look of the links under and inside the card. */
export const authLinkClass =
  'font-medium text-primary-text underline-offset-4 hover:underline focus-visible:underline'

import { type ReactNode, type Ref, useId } from 'react'

/** One part of the account page: a titled card. */
export function Section({
  title,
  lead,
  children,
  danger = false,
  ref,
}: {
  title: string
  lead?: ReactNode
  children: ReactNode
  danger?: boolean
  /** For a section the page scrolls to (it stops below the sticky header). */
  ref?: Ref<HTMLElement>
}) {
  const headingId = useId()
  return (
    <section
      ref={ref}
      aria-labelledby={headingId}
      className={`scroll-mt-20 rounded-xl border bg-card p-6 ${danger ? 'border-error' : ''}`}
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {lead && <div className="mt-1 text-sm wrap-break-word text-muted-foreground">{lead}</div>}
      <div className="mt-4">{children}</div>
    </section>
  )
}

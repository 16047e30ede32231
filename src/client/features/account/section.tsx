import { type ReactNode, useId } from 'react'

/** One part of the account page: a titled card. */
export function Section({
  title,
  lead,
  children,
  danger = false,
}: {
  title: string
  lead?: ReactNode
  children: ReactNode
  danger?: boolean
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-xl border bg-card p-6 ${danger ? 'border-error' : ''}`}
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {lead && <div className="mt-1 text-sm wrap-break-word text-muted-foreground">{lead}</div>}
      <div className="mt-4">{children}</div>
    </section>
  )
}

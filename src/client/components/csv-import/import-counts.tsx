import { useStore } from '@nanostores/react'
import { format } from '@/client/lib/i18n'

/** A CSV import's counts (what a dry run would add, update and keep, or what an import did), under a heading. */
export function ImportCounts({ heading, counts }: { heading: string; counts: readonly (readonly [label: string, value: number])[] }) {
  const formats = useStore(format)
  return (
    <>
      <h3 className="font-semibold">{heading}</h3>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {counts.map(([label, value]) => (
          <div key={label} className="rounded-lg border p-2">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{formats.number(value)}</dd>
          </div>
        ))}
      </dl>
    </>
  )
}

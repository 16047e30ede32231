import { useId } from 'react'
import { cn } from '@/client/lib/cn'

const selectClass = 'h-10 w-full rounded-md border border-input bg-background px-2 text-sm'

/**
 * A labelled native select above a table (a filter, or the sort on narrow screens): arrow keys,
 * type-ahead and the system's own picker on phones.
 */
export function SelectFilter<Value extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string
  value: Value
  options: readonly { value: Value; label: string }[]
  onChange: (value: Value) => void
  className?: string
}) {
  const id = useId()
  return (
    <div className={cn('grid gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        className={selectClass}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

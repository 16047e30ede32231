import { type ComponentProps, useId } from 'react'

// The import dialog's selects still take their look from here (components/ui/select.tsx has it now).
export { selectClass } from '@/client/components/ui/select'

/** A checkbox with its label beside it and a hint under the label (tied to it for assistive technology). */
export function CheckboxField({ label, hint, ...props }: Omit<ComponentProps<'input'>, 'type'> & { label: string; hint?: string }) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="flex items-start gap-3">
      <input
        {...props}
        id={id}
        type="checkbox"
        aria-describedby={hint ? hintId : undefined}
        className="mt-0.5 size-4 shrink-0 accent-(--primary)"
      />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
      </div>
    </div>
  )
}

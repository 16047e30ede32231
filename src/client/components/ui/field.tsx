import { type ComponentProps, type ReactNode, type Ref, useEffect, useId, useRef } from 'react'
import { cn } from '@/client/lib/cn'

export interface FieldControlProps {
  id: string
  'aria-invalid': boolean
  'aria-describedby': string | undefined
}

/** A label, a control and its error, tied together for assistive technology. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string
  error?: string
  hint?: string
  children: (control: FieldControlProps) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  )
}

const controlClass =
  'w-full rounded-md border border-input bg-background px-3 text-sm placeholder:text-muted-foreground aria-[invalid=true]:border-error disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-50'

/**
 * The field, with `autoFocus` focusing it when it mounts: a field shown after the page has loaded
 * (a step of a form, a dialog). Preact only sets the HTML attribute, which the browser acts on once
 * per page load; React focused the element itself.
 */
export function Input({ className, autoFocus, ref, ...props }: ComponentProps<'input'>) {
  const element = useRef<HTMLInputElement | null>(null)
  useEffect(() => {
    if (autoFocus) element.current?.focus()
    // Once, as it mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const setRef = (node: HTMLInputElement | null) => {
    element.current = node
    assignRef(ref, node)
  }
  return <input className={cn(controlClass, 'h-10', className)} {...props} ref={setRef} />
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === 'function') ref(value)
  else if (ref) ref.current = value
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlClass, 'min-h-24 py-2', className)} {...props} />
}

import type { ComponentProps } from 'react'
import { cn } from '@/client/lib/cn'

export const selectClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm aria-[invalid=true]:border-error disabled:opacity-50'

/** A native select in the fields' look: a `Field`'s control props and a form's `register` spread on it. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(selectClass, className)} {...props} />
}

import { type ComponentProps, useEffect, useRef } from 'react'
import { cn } from '@/client/lib/cn'
import { usePageHeadingFocus } from '@/client/lib/route-focus'
import { mounted } from '@/client/lib/started'

/**
 * The main heading of a page, one per page: focus goes to it after a client-side navigation
 * (lib/route-focus.ts), and a screen reader reads it out then. It is no control, so it does not take
 * the boxed outline of one: where the browser shows focus for the keyboard (`:focus-visible`, after
 * a key press, not after a click) it is underlined in the focus colour, as the current page is in the
 * header; forced-colours mode keeps a system outline (`outline-hidden`). Its mounting tells that the
 * page's content has (lib/started.ts).
 */
export function PageHeading({ className, children, ...props }: Omit<ComponentProps<'h1'>, 'ref' | 'tabIndex'>) {
  const ref = useRef<HTMLHeadingElement>(null)
  usePageHeadingFocus(ref)
  useEffect(() => mounted('page'), [])
  return (
    <h1 {...props} ref={ref} tabIndex={-1} className={cn(focusMark, className)}>
      {children}
    </h1>
  )
}

const focusMark =
  'outline-hidden focus-visible:underline focus-visible:decoration-ring focus-visible:decoration-3 focus-visible:underline-offset-[0.2em]'

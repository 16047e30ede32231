import {
  type ReactElement,
  type ReactNode,
  cloneElement,
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { cn } from '@/client/lib/cn'

/** Tooltips open after 700 ms; within 300 ms of another closing, at once (docs/product.md §6). */
const TOOLTIP_DELAY_MS = 700
const TOOLTIP_SKIP_DELAY_MS = 300

/**
 * Written here rather than taken from Radix: Radix's tooltip brings floating-ui (about 12 KB gzip)
 * onto every first page, for hints that only ever sit under a button.
 */
interface SkipDelay {
  markClosed(): void
  /** Whether another tooltip closed within the skip-delay window. */
  recentlyClosed(): boolean
}

function createSkipDelay(): SkipDelay {
  let closedAt = 0
  return {
    markClosed: () => {
      closedAt = Date.now()
    },
    recentlyClosed: () => Date.now() - closedAt < TOOLTIP_SKIP_DELAY_MS,
  }
}

const SkipDelayContext = createContext<SkipDelay>(createSkipDelay())

/** Tooltips inside share the skip-delay window: moving from one to the next opens it at once. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  const [skipDelay] = useState(createSkipDelay)
  return <SkipDelayContext.Provider value={skipDelay}>{children}</SkipDelayContext.Provider>
}

/**
 * A short hint for its single, focusable child: after 700 ms of hover, at once on keyboard focus
 * or within 300 ms of another tooltip closing; Escape, a press or leaving closes it.
 */
export function Tooltip({
  label,
  children,
  align = 'center',
}: {
  label: ReactNode
  children: ReactElement<{ 'aria-describedby'?: string }>
  align?: 'start' | 'center' | 'end'
}) {
  const skipDelay = useContext(SkipDelayContext)
  const [open, setOpen] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const id = useId()

  const show = (delay: number) => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setOpen(true), delay)
  }
  const hide = () => {
    clearTimeout(timer.current)
    if (open) skipDelay.markClosed()
    setOpen(false)
  }

  useEffect(() => () => clearTimeout(timer.current), [])
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      clearTimeout(timer.current)
      skipDelay.markClosed()
      setOpen(false)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open, skipDelay])

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={(event) => {
        if (event.pointerType === 'touch') return
        show(skipDelay.recentlyClosed() ? 0 : TOOLTIP_DELAY_MS)
      }}
      onPointerLeave={hide}
      onPointerDown={hide}
      onFocus={(event) => {
        if (event.target.matches(':focus-visible')) show(0)
      }}
      onBlur={hide}
    >
      {cloneElement(children, { 'aria-describedby': open ? id : undefined })}
      {open && (
        <span
          role="tooltip"
          id={id}
          className={cn(
            'pointer-events-none absolute top-full z-50 mt-2 w-max max-w-64 rounded-md bg-foreground px-2 py-1 text-xs text-background shadow-md',
            align === 'start' && 'left-0',
            align === 'center' && 'left-1/2 -translate-x-1/2',
            align === 'end' && 'right-0',
          )}
        >
          {label}
        </span>
      )}
    </span>
  )
}

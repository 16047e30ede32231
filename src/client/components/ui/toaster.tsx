import { useStore } from '@nanostores/react'
import { Toast } from 'radix-ui'
import { useEffect, useRef } from 'react'
import { cn } from '@/client/lib/cn'
import {
  TOAST_DURATION_MS,
  TOAST_GAP_PX,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD,
  type ToastVariant,
  dismissToast,
  toasts,
} from '@/client/lib/toast'
import { uiMessages } from './messages'

const accents: Record<ToastVariant, string> = {
  default: 'border-l-border',
  success: 'border-l-success',
  info: 'border-l-info',
  warning: 'border-l-warning',
  error: 'border-l-error',
}

/**
 * The notifications region, bottom-right; F8 moves focus to it. `focusOnMount`: it was loaded by an
 * F8 press, which it did not hear itself.
 */
export default function Toaster({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const t = useStore(uiMessages)
  const items = useStore(toasts)
  const viewport = useRef<HTMLOListElement>(null)
  useEffect(() => {
    if (focusOnMount) viewport.current?.focus()
  }, [focusOnMount])
  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
      label={t.notifications}
    >
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id)
          }}
          type={item.variant === 'error' ? 'foreground' : 'background'}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border border-l-4 bg-card p-4 pr-10 shadow-lg',
            'data-[state=open]:animate-[toast-in_150ms_ease-out] data-[state=closed]:animate-[toast-out_150ms_ease-in] data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=end]:animate-[toast-out_100ms_ease-in]',
            accents[item.variant],
          )}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{item.title}</Toast.Title>
            {item.description && (
              <Toast.Description className="text-sm text-muted-foreground">
                {item.description}
              </Toast.Description>
            )}
          </div>
          <Toast.Close
            aria-label={t.close}
            className="absolute top-2 right-2 rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
              <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        ref={viewport}
        hotkey={TOAST_HOTKEY}
        label={t.notificationsRegion}
        style={{ gap: TOAST_GAP_PX }}
        // F8 shows where the focus went, unless there is nothing to show.
        className="fixed right-0 bottom-0 z-50 m-0 flex w-full max-w-sm list-none flex-col rounded-xl p-4 -outline-offset-4 not-has-[li]:outline-none"
      />
    </Toast.Provider>
  )
}

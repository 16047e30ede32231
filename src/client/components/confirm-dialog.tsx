import { Suspense, lazy, useState } from 'react'
import type { ConfirmDialogProps } from './confirm-dialog-content'

const ConfirmDialogContent = lazy(() => import('./confirm-dialog-content'))

/**
 * The one confirmation before something is removed or changed for good (a level, a passkey, a
 * linked provider). Opened from a plain button (no Radix trigger): focus goes back to it on
 * closing, or to `returnFocus` once that button has gone with what it removed. Closing is refused
 * while the change is pending.
 *
 * Its code (Radix's dialog, 14 KB gzip) is loaded when it first opens, not with the page; from
 * then on it stays mounted, so that it closes as Radix closes it (focus given back).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opened, setOpened] = useState(props.open)
  if (props.open && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <ConfirmDialogContent {...props} />
    </Suspense>
  )
}

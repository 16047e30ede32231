import { useStore } from '@nanostores/react'
import { Suspense, lazy, useEffect, useState } from 'react'
import { TOAST_HOTKEY, toasts } from '@/client/lib/toast'

// The notifications region loads with the first toast or the first F8, not with the first page.
const Toaster = lazy(() => import('./toaster'))

const isHotkey = (event: KeyboardEvent) => TOAST_HOTKEY.every((key) => event.code === key)

export function ToasterHost() {
  const hasToasts = useStore(toasts).length > 0
  const [wanted, setWanted] = useState(false)
  useEffect(() => {
    if (wanted) return
    const onKeyDown = (event: KeyboardEvent) => {
      // The region, once mounted, focuses itself for this first press and listens for the next ones.
      if (isHotkey(event)) setWanted(true)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [wanted])
  if (!hasToasts && !wanted) return null
  return (
    <Suspense fallback={null}>
      <Toaster focusOnMount={wanted} />
    </Suspense>
  )
}

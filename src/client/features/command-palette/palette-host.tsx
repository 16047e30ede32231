import { useSelector } from '@tanstack/react-store'
import { Suspense, lazy, useEffect } from 'react'
import { paletteOpen } from './palette-state'

// cmdk and the dialog load on first use, not with the first page.
const CommandPalette = lazy(() => import('./command-palette'))

/** Ctrl+K / Cmd+K anywhere opens the command palette. */
export function CommandPaletteHost() {
  const open = useSelector(paletteOpen)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault()
        paletteOpen.set((value) => !value)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <CommandPalette onClose={() => paletteOpen.set(false)} />
    </Suspense>
  )
}

import { useStore } from '@nanostores/react'
import { Suspense, lazy, useEffect, useState } from 'react'
import { closePalette, paletteOpen, togglePalette } from './palette-state'

// cmdk and the dialog load on first use, not with the first page.
// With the query cache: the palette lists levels for admins.
const CommandPalette = lazy(async () => {
  const [{ default: palette }, { withQueries }] = await Promise.all([
    import('./command-palette'),
    import('@/client/lib/query-client'),
  ])
  return { default: withQueries(palette) }
})

/** Ctrl+K / Cmd+K anywhere opens the command palette. */
export function CommandPaletteHost() {
  const open = useStore(paletteOpen)
  // Once loaded, the palette stays mounted so that closing it returns focus properly.
  const [loaded, setLoaded] = useState(false)
  if (open && !loaded) setLoaded(true)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault()
        togglePalette()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
  if (!loaded) return null
  return (
    <Suspense fallback={null}>
      <CommandPalette open={open} onClose={closePalette} />
    </Suspense>
  )
}

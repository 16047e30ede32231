import { createAtom } from '@tanstack/react-store'

export const paletteOpen = createAtom(false)

export function openPalette() {
  paletteOpen.set(true)
}

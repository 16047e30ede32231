import { atom } from 'nanostores'

export const paletteOpen = atom(false)

/** Where focus was when the palette opened: it goes back there when the palette closes. */
let returnFocusTo: HTMLElement | null = null

export function openPalette() {
  if (paletteOpen.get()) return
  returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null
  paletteOpen.set(true)
}

export function togglePalette() {
  if (paletteOpen.get()) paletteOpen.set(false)
  else openPalette()
}

export function closePalette() {
  paletteOpen.set(false)
}

export function restorePaletteFocus() {
  if (returnFocusTo?.isConnected) returnFocusTo.focus()
  returnFocusTo = null
}

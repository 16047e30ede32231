import { atom } from 'nanostores'

export const paletteOpen = atom(false)

/**
 * Where focus was when the palette opened: it goes back there when the palette closes, unless the
 * palette went to another page, whose heading takes focus (lib/route-focus.ts).
 */
let returnFocusTo: HTMLElement | null = null
let openedOn = ''

export function openPalette() {
  if (paletteOpen.get()) return
  returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null
  openedOn = location.pathname
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
  if (returnFocusTo?.isConnected && location.pathname === openedOn) returnFocusTo.focus()
  returnFocusTo = null
}

import { atom } from 'nanostores'

/** How toasts behave (docs/product.md §6). */
export const TOAST_DURATION_MS = 5000
export const TOAST_SWIPE_THRESHOLD = 50
const TOAST_LIMIT = 5
const TOAST_REMOVE_DELAY_MS = 200
export const TOAST_GAP_PX = 16
export const TOAST_HOTKEY = ['F8']

export type ToastVariant = 'default' | 'success' | 'info' | 'warning' | 'error'

export interface ToastInput {
  title: string
  description?: string
  variant?: ToastVariant
}

export interface ToastItem extends Required<Omit<ToastInput, 'description'>> {
  id: number
  description?: string
  open: boolean
}

export const toasts = atom<ToastItem[]>([])
let nextId = 1

/** Shows a toast; the oldest goes when more than five are open. */
export function toast(input: ToastInput): number {
  const id = nextId++
  toasts.set(
    [
      ...toasts.get().filter((item) => item.open),
      { variant: 'default' as const, ...input, id, open: true },
    ].slice(-TOAST_LIMIT),
  )
  return id
}

/** Closes a toast; it leaves the list after its exit animation. */
export function dismissToast(id: number) {
  toasts.set(toasts.get().map((item) => (item.id === id ? { ...item, open: false } : item)))
  setTimeout(() => {
    toasts.set(toasts.get().filter((item) => item.id !== id))
  }, TOAST_REMOVE_DELAY_MS)
}

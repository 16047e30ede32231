import { useState } from 'react'

/**
 * A dialog opened for something (`value`: the row to edit, null for a new one): `round` counts the
 * openings, for a `key` that starts each afresh; `close` lets it close (and give focus back) while
 * it stays mounted.
 */
export function useDialogRound<Value>() {
  const [opened, setOpened] = useState<{ value: Value; round: number } | null>(null)
  const [open, setOpen] = useState(false)
  return {
    opened,
    open,
    openDialog: (value: Value) => {
      setOpened((previous) => ({ value, round: (previous?.round ?? 0) + 1 }))
      setOpen(true)
    },
    close: () => setOpen(false),
  }
}

import { useStore } from '@nanostores/react'
import { useId, useLayoutEffect, useRef, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Icon } from '@/client/components/ui/icons'
import { deckExportUrl } from './api'
import { deckMessages } from './messages'

const itemClass = 'block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-accent'

/**
 * "Export": a button that shows the deck's files, "CSV" and "Anki package" (plain links: the
 * browser downloads them with the session cookie). Escape or a click elsewhere closes it.
 */
export function ExportMenu({ deckId }: { deckId: number }) {
  const t = useStore(deckMessages)
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  // Listening from the moment the list shows: an Escape pressed at once is heard.
  useLayoutEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return
        setOpen(false)
        button.current?.focus()
      } else if (!root.current?.contains(event.target as Node)) {
        setOpen(false)
      }
    }
    document.addEventListener('keydown', close)
    document.addEventListener('pointerdown', close)
    return () => {
      document.removeEventListener('keydown', close)
      document.removeEventListener('pointerdown', close)
    }
  }, [open])

  return (
    <div ref={root} className="relative">
      <Button ref={button} variant="outline" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        {t.export}
        <Icon className="size-4">
          <path d="m6 9 6 6 6-6" />
        </Icon>
      </Button>
      <div id={menuId} hidden={!open} className="absolute left-0 z-30 mt-2 w-48 rounded-lg border bg-card p-1 shadow-lg">
        <a href={deckExportUrl(deckId, 'csv')} download className={itemClass} onClick={() => setOpen(false)}>
          {t.exportCsv}
        </a>
        <a href={deckExportUrl(deckId, 'apkg')} download className={itemClass} onClick={() => setOpen(false)}>
          {t.exportAnki}
        </a>
      </div>
    </div>
  )
}

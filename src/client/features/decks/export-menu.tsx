import { useStore } from '@nanostores/react'
import { useRef, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { DropdownMenu, menuItemClass, useDropdown } from '@/client/components/ui/dropdown-menu'
import { Icon } from '@/client/components/ui/icons'
import { deckExportUrl } from './api'
import { deckMessages } from './messages'

/**
 * "Export": a button that shows the deck's files, "CSV" and "Anki package" (plain links: the
 * browser downloads them with the session cookie). Escape or a click elsewhere closes it.
 */
export function ExportMenu({ deckId }: { deckId: number }) {
  const t = useStore(deckMessages)
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const { menuId, root } = useDropdown(open, (by) => {
    setOpen(false)
    if (by === 'escape') button.current?.focus()
  })

  return (
    <div ref={root} className="relative">
      <Button ref={button} variant="outline" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        {t.export}
        <Icon className="size-4">
          <path d="m6 9 6 6 6-6" />
        </Icon>
      </Button>
      <DropdownMenu id={menuId} open={open} className="left-0 z-30">
        <a href={deckExportUrl(deckId, 'csv')} download className={menuItemClass} onClick={() => setOpen(false)}>
          {t.exportCsv}
        </a>
        <a href={deckExportUrl(deckId, 'apkg')} download className={menuItemClass} onClick={() => setOpen(false)}>
          {t.exportAnki}
        </a>
      </DropdownMenu>
    </div>
  )
}

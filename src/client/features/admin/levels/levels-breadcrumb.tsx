import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { levelFormMessages } from './messages'

/** "Language levels / {current}" above a level's page and the create page. */
export function LevelsBreadcrumb({ current }: { current: string }) {
  const t = useStore(levelFormMessages)
  return (
    <nav aria-label={t.breadcrumb} className="text-sm">
      <ol className="flex flex-wrap items-center gap-2 text-muted-foreground">
        <li>
          <Link to="/admin/language-levels" className="underline-offset-4 hover:text-foreground hover:underline">
            {t.levels}
          </Link>
        </li>
        <li aria-hidden="true">/</li>
        <li aria-current="page" className="font-medium break-all text-foreground">
          {current}
        </li>
      </ol>
    </nav>
  )
}

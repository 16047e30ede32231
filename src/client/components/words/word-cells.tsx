import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { Button } from '@/client/components/ui/button'
import { cn } from '@/client/lib/cn'
import { locale } from '@/client/lib/i18n'

/**
 * A word's translations: the one in the interface language first, the other under it (`once`: not
 * when it says the same). `children` come under them: on a phone, the row's buttons.
 */
export function TranslationsCell({
  word,
  once = false,
  children,
}: {
  word: { translationEn: string; translationRu: string }
  once?: boolean
  children?: ReactNode
}) {
  const lang = useStore(locale)
  const en = [word.translationEn, 'en'] as const
  const ru = [word.translationRu, 'ru'] as const
  const [first, second] = lang === 'ru' ? [ru, en] : [en, ru]
  return (
    <div className="grid gap-0.5 break-words">
      <span lang={first[1]}>{first[0]}</span>
      {!(once && second[0] === first[0]) && (
        <span lang={second[1]} className="text-xs text-muted-foreground">
          {second[0]}
        </span>
      )}
      {children}
    </div>
  )
}

/** What a words table's row buttons say. */
interface WordRowTexts {
  edit: string
  editNamed: (values: { text: string }) => string
  delete: string
  deleteNamed: (values: { text: string }) => string
}

/** A word's row buttons, Edit and Delete, each named after the word for assistive technology. */
export function WordRowActions({
  texts: t,
  text,
  onEdit,
  onDelete,
  className,
}: {
  texts: WordRowTexts
  text: string
  onEdit: () => void
  onDelete: () => void
  className?: string
}) {
  return (
    <div className={cn('flex flex-wrap gap-1', className)}>
      <Button variant="outline" size="sm" aria-label={t.editNamed({ text })} onClick={onEdit}>
        {t.edit}
      </Button>
      <Button variant="outline" size="sm" className="text-error" aria-label={t.deleteNamed({ text })} onClick={onDelete}>
        {t.delete}
      </Button>
    </div>
  )
}

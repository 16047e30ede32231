import { useStore } from '@nanostores/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import type { LanguageLevel } from '@/shared/levels'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { levelUsageQuery, levelsApi } from './api'
import { useLevelsCache } from './level-cache'
import { levelsAdminMessages } from './messages'

export type DeletableLevel = Pick<LanguageLevel, 'id' | 'code' | 'name'>

/**
 * The one confirmation before a level is deleted (the list and the level's page): it says how many
 * learners have the level in their profile, since deleting clears it from them, and how many can-do
 * statements and words are deleted with it.
 */
export function DeleteLevelDialog({
  level,
  onClose,
  onDeleted,
}: {
  /** The level to delete; null keeps the dialog closed. */
  level: DeletableLevel | null
  onClose: () => void
  /** After the level is gone (a level someone else deleted first counts as gone). */
  onDeleted: (level: DeletableLevel) => unknown
}) {
  const t = useStore(levelsAdminMessages)
  const errorTexts = useStore(apiErrorMessages)
  const levels = useLevelsCache()
  const remove = useMutation({
    mutationFn: async (target: DeletableLevel) => {
      try {
        await levelsApi.remove(target.id)
      } catch (error) {
        if (!(error instanceof ApiRequestError && error.status === 404)) throw error
      }
      return target
    },
    onSuccess: async (target) => {
      // The refresh after it must not ask for the usage of a level that no longer exists, whether
      // or not this dialog has rendered since the deletion started (`enabled` below).
      levels.forgetUsage(target.id)
      toast({ title: levelsAdminMessages.get().deleted({ code: target.code }), variant: 'success' })
      await onDeleted(target)
    },
  })

  // Not read again once the deletion is under way: the refresh after it must not ask for the
  // usage of a level that no longer exists.
  const usage = useQuery({
    ...levelUsageQuery(level?.id ?? 0),
    enabled: level !== null && remove.isIdle,
  })

  const close = () => {
    if (remove.isPending) return
    remove.reset()
    onClose()
  }

  return (
    <ConfirmDialog
      open={level !== null}
      title={level ? t.deleteTitle({ code: level.code }) : ''}
      description={
        level && (
          <>
            <p className="break-words text-muted-foreground">{t.deleteLead({ code: level.code, name: level.name })}</p>
            <div aria-live="polite">
              {usage.isPending && (
                <span className="flex items-center gap-2">
                  <span className="sr-only">{t.usageLoading}</span>
                  <Skeleton className="h-5 w-full" />
                </span>
              )}
              {usage.isError && <span className="text-error">{t.usageFailed}</span>}
              {usage.data && (
                <ul className="grid list-disc gap-1 pl-5 font-medium">
                  <li>{usage.data.learners === 0 ? t.usageNone : t.usageSome({ count: usage.data.learners })}</li>
                  <li>{usage.data.statements === 0 ? t.statementsNone : t.statementsSome({ count: usage.data.statements })}</li>
                  <li>{usage.data.words === 0 ? t.wordsNone : t.wordsSome({ count: usage.data.words })}</li>
                </ul>
              )}
            </div>
          </>
        )
      }
      confirmLabel={t.confirmDelete}
      pendingLabel={t.deleting}
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, errorTexts) : undefined}
      onConfirm={() => level && remove.mutate(level)}
      onClose={close}
    />
  )
}

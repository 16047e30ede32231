import { useStore } from '@nanostores/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { AlertDialog } from 'radix-ui'
import { useRef } from 'react'
import type { LanguageLevel } from '@/shared/level-constants'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { levelUsageQuery, levelsApi } from './api'
import { levelsAdminMessages } from './messages'

export type DeletableLevel = Pick<LanguageLevel, 'id' | 'code' | 'name'>

/**
 * The one confirmation before a level is deleted (the list and the level's page): it says how many
 * learners have the level in their profile, since deleting clears it from them.
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

  // Opened from a plain button (no Radix trigger): focus goes back to it on closing, if it is still there.
  const opener = useRef<HTMLElement | null>(null)

  const close = () => {
    if (remove.isPending) return
    remove.reset()
    onClose()
  }

  return (
    <AlertDialog.Root open={level !== null} onOpenChange={(open) => !open && close()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <AlertDialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            if (opener.current?.isConnected) opener.current.focus()
            opener.current = null
          }}
          className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-2xl">
          {level && (
            <>
              <AlertDialog.Title className="text-lg font-semibold break-words">
                {t.deleteTitle({ code: level.code })}
              </AlertDialog.Title>
              <AlertDialog.Description asChild>
                <div className="grid gap-3 text-sm">
                  <p className="break-words text-muted-foreground">
                    {t.deleteLead({ code: level.code, name: level.name })}
                  </p>
                  <div aria-live="polite">
                    {usage.isPending && (
                      <span className="flex items-center gap-2">
                        <span className="sr-only">{t.usageLoading}</span>
                        <Skeleton className="h-5 w-full" />
                      </span>
                    )}
                    {usage.isError && <span className="text-error">{t.usageFailed}</span>}
                    {usage.data && (
                      <span className="font-medium">
                        {usage.data.learners === 0
                          ? t.usageNone
                          : t.usageSome({ count: usage.data.learners })}
                      </span>
                    )}
                  </div>
                </div>
              </AlertDialog.Description>
              {remove.isError && <Alert variant="error">{errorMessage(remove.error, errorTexts)}</Alert>}
              <div className="flex flex-wrap justify-end gap-2">
                <AlertDialog.Cancel asChild>
                  <Button variant="outline" disabled={remove.isPending}>
                    {t.cancel}
                  </Button>
                </AlertDialog.Cancel>
                <Button
                  variant="destructive"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(level)}
                >
                  {remove.isPending ? t.deleting : t.confirmDelete}
                </Button>
              </div>
            </>
          )}
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}

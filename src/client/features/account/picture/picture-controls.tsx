import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { type DragEvent, Suspense, lazy, useId, useRef, useState } from 'react'
import { AVATAR_MAX_BYTES, AVATAR_TYPES, AVATAR_UPLOAD_PATH } from '@/shared/avatars'
import { Alert } from '@/client/components/ui/alert'
import { Avatar } from '@/client/components/ui/avatar'
import { Button } from '@/client/components/ui/button'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { api } from '@/client/lib/api'
import { type SessionUser, refreshSession } from '@/client/lib/auth'
import { cn } from '@/client/lib/cn'
import { toast } from '@/client/lib/toast'
import { accountMessages } from '@/client/features/account/messages'
import type { ChosenPicture } from './crop-dialog'

// The cropper (and its library) loads when a picture is chosen, not with the account page.
const CropDialog = lazy(() => import('./crop-dialog'))

/** The API path of the picture, below the API's base (`api()` adds it). */
const picturePath = AVATAR_UPLOAD_PATH.replace(/^\/api/, '')

/** Why a file cannot be a picture, before anything is sent; undefined when it may be one. */
function refusalOf(file: File): 'pictureTypeRefused' | 'pictureTooBig' | undefined {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'pictureTypeRefused'
  if (file.size > AVATAR_MAX_BYTES) return 'pictureTooBig'
  return undefined
}

/**
 * The profile picture on /account: the current one (or the initials), a file picker that also
 * takes a dropped file, the crop before the upload, and removal.
 */
export function PictureControls({ user }: { user: SessionUser }) {
  const t = useStore(accountMessages)
  const hintId = useId()
  const input = useRef<HTMLInputElement>(null)
  const chooseButton = useRef<HTMLButtonElement>(null)
  const [chosen, setChosen] = useState<ChosenPicture | null>(null)
  const [refusal, setRefusal] = useState<ReturnType<typeof refusalOf>>()
  const [dropping, setDropping] = useState(false)

  const remove = useMutation({
    mutationFn: () => api<undefined>(picturePath, { method: 'DELETE' }),
    onSuccess: async () => {
      await refreshSession('USER_UPDATED')
      toast({ title: accountMessages.get().pictureRemoved, variant: 'success' })
      chooseButton.current?.focus()
    },
  })

  const take = (file: File | undefined) => {
    if (!file) return
    const problem = refusalOf(file)
    setRefusal(problem)
    remove.reset()
    // Revoked when the dialog closes (`close`).
    if (!problem) setChosen({ file, url: URL.createObjectURL(file) })
  }
  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDropping(false)
    take(event.dataTransfer.files[0])
  }

  return (
    <div className="grid gap-3">
      <div
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return
          event.preventDefault()
          setDropping(true)
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-wrap items-center gap-4 rounded-lg border-2 border-dashed p-4 transition-colors',
          dropping ? 'border-primary bg-muted' : 'border-border',
        )}
      >
        <Avatar src={user.image} alt={user.name} size="3xl" />
        <div className="grid min-w-0 flex-1 gap-2">
          <p className="font-medium">{t.pictureLabel}</p>
          <p id={hintId} className="text-sm text-muted-foreground">
            {dropping ? t.pictureDrop : t.pictureHint}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button ref={chooseButton} variant="outline" aria-describedby={hintId} onClick={() => input.current?.click()}>
              {user.image ? t.replacePicture : t.choosePicture}
            </Button>
            {user.image && (
              <Button variant="outline" disabled={remove.isPending} onClick={() => remove.mutate()}>
                {remove.isPending ? t.removingPicture : t.removePicture}
              </Button>
            )}
          </div>
        </div>
        {/* Opened by the button above; a file chosen twice in a row is still a change. */}
        <input
          ref={input}
          type="file"
          hidden
          aria-label={t.pictureLabel}
          accept={AVATAR_TYPES.join(',')}
          onChange={(event) => {
            take(event.target.files?.[0])
            event.target.value = ''
          }}
        />
      </div>
      {refusal && <Alert variant="error">{t[refusal]}</Alert>}
      {remove.isError && <ErrorAlert error={remove.error} onRetry={() => remove.mutate()} />}
      {chosen && (
        <Suspense fallback={null}>
          <CropDialog
            picture={chosen}
            path={picturePath}
            returnFocus={chooseButton}
            onClose={() => {
              URL.revokeObjectURL(chosen.url)
              setChosen(null)
            }}
          />
        </Suspense>
      )}
    </div>
  )
}

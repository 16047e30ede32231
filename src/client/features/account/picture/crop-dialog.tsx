import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { Dialog } from 'radix-ui'
import { type RefObject, useEffect, useRef, useState } from 'react'
import ReactCrop, { type PercentCrop, centerCrop, makeAspectCrop } from 'react-image-crop'
import 'react-image-crop/dist/ReactCrop.css'
import type { AvatarCrop } from '@/shared/avatars'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { apiUpload, searchOf } from '@/client/lib/api'
import { refreshSession } from '@/client/lib/auth'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { accountMessages } from '@/client/features/account/messages'

/** A file chosen to be the picture, and its object URL for the page to show it while cropping. */
export interface ChosenPicture {
  file: File
  url: string
}

/** The frame in pixels of the picture (its orientation applied, as the browser shows it). */
function squareOf(crop: PercentCrop, image: { naturalWidth: number; naturalHeight: number }): AvatarCrop {
  const size = Math.max(1, Math.round((crop.width / 100) * image.naturalWidth))
  return {
    left: Math.round((crop.x / 100) * image.naturalWidth),
    top: Math.round((crop.y / 100) * image.naturalHeight),
    size,
  }
}

/**
 * Chooses the square of `file` to keep (react-image-crop: by pointer, or by keyboard on the frame
 * and its corners), then uploads the file with that square, showing its progress. The server cuts
 * and encodes it.
 */
export default function CropDialog({
  picture: { file, url },
  path,
  returnFocus,
  onClose,
}: {
  picture: ChosenPicture
  path: string
  /** Where focus goes when the dialog closes (it has no trigger of its own). */
  returnFocus: RefObject<HTMLElement | null>
  onClose: () => void
}) {
  const t = useStore(accountMessages)
  const errors = useStore(apiErrorMessages)
  const [crop, setCrop] = useState<PercentCrop>()
  const [image, setImage] = useState<HTMLImageElement | null>(null)
  const [unreadable, setUnreadable] = useState(false)
  const [sent, setSent] = useState(0)
  const frame = useRef<HTMLDivElement>(null)
  // The keyboard starts on the frame, as the pointer would, once the picture has loaded and the
  // frame is drawn (after the render that set the first crop).
  const placed = crop !== undefined
  useEffect(() => {
    if (placed) frame.current?.querySelector<HTMLElement>('.ReactCrop__crop-selection')?.focus()
  }, [placed])

  const upload = useMutation({
    mutationFn: (square: AvatarCrop) => apiUpload<{ image: string }>(`${path}?${searchOf(square)}`, file, setSent),
    onSuccess: async () => {
      await refreshSession('USER_UPDATED')
      toast({ title: accountMessages.get().pictureSaved, variant: 'success' })
      onClose()
    },
    onError: () => setSent(0),
  })

  const handle = (corner: string) => t.cropHandle({ corner })
  const percent = Math.round(sent * 100)
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !upload.isPending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocus.current?.focus()
          }}
          className="fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-6 shadow-2xl">
          <Dialog.Title className="text-lg font-semibold">{t.cropTitle}</Dialog.Title>
          <Dialog.Description className="text-sm text-muted-foreground">{t.cropLead}</Dialog.Description>
          <div ref={frame} className="flex justify-center rounded-lg bg-muted p-2">
            {!unreadable && (
              <ReactCrop
                crop={crop}
                onChange={(_, next) => setCrop(next)}
                aspect={1}
                circularCrop
                keepSelection
                minWidth={32}
                disabled={upload.isPending}
                ariaLabels={{
                  cropArea: t.cropArea,
                  nwDragHandle: handle(t.cornerNw),
                  nDragHandle: handle(t.cornerN),
                  neDragHandle: handle(t.cornerNe),
                  eDragHandle: handle(t.cornerE),
                  seDragHandle: handle(t.cornerSe),
                  sDragHandle: handle(t.cornerS),
                  swDragHandle: handle(t.cornerSw),
                  wDragHandle: handle(t.cornerW),
                }}
              >
                <img
                  src={url}
                  alt=""
                  className="max-h-[50dvh]"
                  onError={() => setUnreadable(true)}
                  onLoad={(event) => {
                    const { naturalWidth: width, naturalHeight: height } = event.currentTarget
                    setImage(event.currentTarget)
                    // The largest square in the middle, as the server would keep without a crop.
                    setCrop(centerCrop(makeAspectCrop({ unit: '%', width: 100 }, 1, width, height), width, height))
                  }}
                />
              </ReactCrop>
            )}
          </div>
          {unreadable && <Alert variant="error">{t.pictureUnreadable}</Alert>}
          {upload.isPending && (
            <div
              role="progressbar"
              aria-label={t.uploadProgress}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${percent}%`}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
            </div>
          )}
          {upload.isError && <Alert variant="error">{errorMessage(upload.error, errors)}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            <Dialog.Close asChild>
              <Button variant="outline" disabled={upload.isPending}>
                {t.cancel}
              </Button>
            </Dialog.Close>
            <Button
              disabled={!crop || !image || unreadable || upload.isPending}
              onClick={() => crop && image && upload.mutate(squareOf(crop, image))}
            >
              {upload.isPending ? t.savingPicture : t.savePicture}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

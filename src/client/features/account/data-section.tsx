import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { Button } from '@/client/components/ui/button'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { apiDownload } from '@/client/lib/api'
import { accountMessages } from './messages'
import { Section } from './section'

/** Saves `blob` as a file named `name`, as a download link would. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** "Your data": a copy of everything Lingua holds about the person (GET /api/me/export). */
export function DataSection() {
  const t = useStore(accountMessages)
  const download = useMutation({
    mutationFn: () => apiDownload('/me/export', 'lingua-data.json'),
    onSuccess: ({ blob, name }) => save(blob, name),
  })
  return (
    <Section title={t.dataTitle} lead={t.dataLead}>
      <div className="grid gap-3">
        <div>
          <Button variant="outline" disabled={download.isPending} onClick={() => download.mutate()}>
            {download.isPending ? t.downloadingData : t.downloadData}
          </Button>
        </div>
        {download.isError && <ErrorAlert error={download.error} onRetry={() => download.mutate()} />}
      </div>
    </Section>
  )
}

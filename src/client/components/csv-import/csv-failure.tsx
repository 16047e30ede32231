import { useStore } from '@nanostores/react'
import { Alert } from '@/client/components/ui/alert'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { csvImportMessages } from './messages'

/**
 * Why a CSV file was not taken, in the interface language: not CSV (415), too large (413: the
 * page's own words, `tooLarge`), not read as its CSV (400: the server's detail after it, in English,
 * such as the header it expected), or the API's message of any other error.
 */
export function CsvFailure({ error, tooLarge }: { error: unknown; tooLarge: string }) {
  const t = useStore(csvImportMessages)
  const errors = useStore(apiErrorMessages)
  let text = errorMessage(error, errors)
  let detail: string | undefined
  if (error instanceof ApiRequestError) {
    if (error.status === 415) text = t.notCsv
    else if (error.status === 413) text = tooLarge
    else if (error.status === 400 && error.code === 'bad_request') [text, detail] = [t.unreadable, error.message]
  }
  return (
    <Alert variant="error">
      {text}
      {detail && (
        <span className="mt-1 block wrap-break-word" lang="en">
          {detail}
        </span>
      )}
    </Alert>
  )
}

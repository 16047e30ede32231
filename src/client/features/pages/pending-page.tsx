import { useStore } from '@nanostores/react'
import { pageMessages } from './messages'
import { Page } from './page'

type Messages = ReturnType<typeof pageMessages.get>

/** A route whose content arrives with a later release; its guard already applies. */
export function PendingPage({ title }: { title: (t: Messages) => string }) {
  const t = useStore(pageMessages)
  return <Page title={title(t)} lead={t.comingSoon} />
}

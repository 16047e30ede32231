import { createFileRoute } from '@tanstack/react-router'
import { parsePositiveInt } from '../../../../shared/routes'
import { PendingPage } from '../../../features/pages/pending-page'
import { guardsFor } from '../../../lib/guards'
import { HttpError } from '../../../lib/http-error'

const runGuards = guardsFor('/admin/language-levels/$id')

export const Route = createFileRoute('/admin/language-levels/$id')({
  beforeLoad: async (ctx) => {
    // An invalid id is a missing page for everyone, before any guard (the server answers 404 too).
    if (parsePositiveInt(ctx.params.id) === undefined) {
      const path = ctx.location.pathname
      throw new HttpError(404, `Page Not Found: ${path}`, { key: 'pageNotFoundParam', path })
    }
    await runGuards(ctx)
  },
  component: function LevelPage() {
    const { id } = Route.useParams()
    return <PendingPage title={(t) => t.level({ id })} />
  },
})

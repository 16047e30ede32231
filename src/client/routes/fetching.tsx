import { createFileRoute } from '@tanstack/react-router'
import { FetchingPage } from '@/client/features/demo/fetching-page'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/fetching')({ component: withQueries(FetchingPage) })

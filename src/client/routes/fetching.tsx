import { createFileRoute } from '@tanstack/react-router'
import { FetchingPage } from '../features/demo/fetching-page'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/fetching')({ component: withQueries(FetchingPage) })

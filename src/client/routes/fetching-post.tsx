import { createFileRoute } from '@tanstack/react-router'
import { FetchingPostPage } from '../features/demo/fetching-post-page'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/fetching-post')({ component: withQueries(FetchingPostPage) })

import { createFileRoute } from '@tanstack/react-router'
import { FetchingPostPage } from '@/client/features/demo/fetching-post-page'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/fetching-post')({ component: withQueries(FetchingPostPage) })

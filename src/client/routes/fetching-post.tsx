import { createFileRoute } from '@tanstack/react-router'
import { FetchingPostPage } from '@/client/features/demo/fetching-post-page'

export const Route = createFileRoute('/fetching-post')({ component: FetchingPostPage })

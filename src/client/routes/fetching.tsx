import { createFileRoute } from '@tanstack/react-router'
import { FetchingPage } from '../features/demo/fetching-page'

export const Route = createFileRoute('/fetching')({ component: FetchingPage })

import { createFileRoute } from '@tanstack/react-router'
import { AboutPage } from '@/client/features/about/about-page'

export const Route = createFileRoute('/about')({ component: AboutPage })

import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { ToasterHost } from '@/client/components/ui/toaster-host'
import { TooltipProvider } from '@/client/components/ui/tooltip'
import { Footer } from './footer'
import { Header } from './header'
import { layoutMessages } from './messages'

/**
 * The one default layout around every page. The root route composes the search into it: what the
 * header's search button opens (`onSearch`) and where that lives (`search`, the command palette).
 */
export function AppLayout({
  children,
  onSearch,
  search,
}: {
  children: ReactNode
  onSearch: () => void
  search?: ReactNode
}) {
  const t = useStore(layoutMessages)
  return (
    <TooltipProvider>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t.skipToContent}
      </a>
      <div className="flex min-h-dvh flex-col">
        <Header onSearch={onSearch} />
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 outline-none">
          {children}
        </main>
        <Footer />
      </div>
      <ToasterHost />
      {search}
    </TooltipProvider>
  )
}

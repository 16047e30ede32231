import { useEffect } from 'react'
import { runtimeConfig } from './runtime-config'

/** Sets the document title: "Page · Lingua". */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    const appName = runtimeConfig().appName
    document.title = title ? `${title} · ${appName}` : appName
  }, [title])
}

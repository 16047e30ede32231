/**
 * After a new deployment the old code chunks are gone. TanStack Router already reloads the page
 * once when a route's chunk fails to load; our own lazy parts (toaster, palette, error screen)
 * follow the same policy with the same sessionStorage key, so that no chunk ever reloads the page
 * twice: once per failing chunk per tab, then the error screen.
 */
function isChunkLoadError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed)/.test(
      error.message,
    )
  )
}

const reloadKey = (error: Error) => `tanstack_router_reload:${error.message}`

/** Whether `error` is a chunk that could not load because the browser is offline. */
export const isOfflineChunkError = (error: unknown): boolean =>
  typeof window !== 'undefined' && !navigator.onLine && isChunkLoadError(error)

/**
 * Offline, a chunk never loaded before cannot load, and reloading the page would put the browser's
 * own "No internet" page in place of the app (a learner practising offline who opens the
 * dashboard). So a chunk that fails while offline counts as reloaded already, for the router too
 * (Vite's `vite:preloadError`, before the router sees the error): the error screen says so, and the
 * marks go once the browser is back online.
 */
export function keepPagesOffline(): void {
  const marked = new Set<string>()
  window.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload
    if (!isOfflineChunkError(error) || !(error instanceof Error)) return
    try {
      if (sessionStorage.getItem(reloadKey(error))) return
      sessionStorage.setItem(reloadKey(error), '1')
      marked.add(reloadKey(error))
    } catch {
      // No sessionStorage: the router cannot count its reloads either.
    }
  })
  window.addEventListener('online', () => {
    for (const key of marked) sessionStorage.removeItem(key)
    marked.clear()
  })
}

/** Reloads the page unless this chunk has already done so in this tab; says whether it did. */
export function reloadOnceFor(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false
  const key = reloadKey(error)
  try {
    if (sessionStorage.getItem(key)) return false
    sessionStorage.setItem(key, '1')
  } catch {
    return false
  }
  location.reload()
  return true
}

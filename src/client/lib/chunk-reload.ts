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

/** Reloads the page unless this chunk has already done so in this tab; says whether it did. */
export function reloadOnceFor(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false
  const key = `tanstack_router_reload:${error.message}`
  try {
    if (sessionStorage.getItem(key)) return false
    sessionStorage.setItem(key, '1')
  } catch {
    return false
  }
  location.reload()
  return true
}

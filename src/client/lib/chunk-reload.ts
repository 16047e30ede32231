const STORAGE_KEY = 'lingua.chunk-reload-at'
/** Two reloads closer than this mean the new build is broken, not merely new: stop reloading. */
const WINDOW_MS = 10_000

/** After a deployment the old code chunks are gone: reload once to get the new ones. */
export function reloadOnce(): boolean {
  try {
    const last = Number(sessionStorage.getItem(STORAGE_KEY) ?? 0)
    if (Date.now() - last < WINDOW_MS) return false
    sessionStorage.setItem(STORAGE_KEY, String(Date.now()))
  } catch {
    return false
  }
  location.reload()
  return true
}

export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    )
  )
}

export function installChunkReload() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnce()) event.preventDefault()
  })
}

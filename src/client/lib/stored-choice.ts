/**
 * A choice of the person (language, colour mode), kept in localStorage (what the tabs share, and
 * hear change) and copied into a cookie, where the server reads it for the first HTML. The inline
 * script of index.html copies it there too, before the first paint, when the cookie says otherwise
 * (a choice made before the cookie existed, or in another tab).
 */
const YEAR_SECONDS = 365 * 24 * 60 * 60

function cookieValue(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key !== name) continue
    try {
      return decodeURIComponent(value.join('='))
    } catch {
      // Not written by the app: as if there were none.
      return null
    }
  }
  return null
}

export function readChoice(name: string): string | null {
  if (typeof document === 'undefined') return null
  try {
    const stored = localStorage.getItem(name)
    if (stored !== null) return stored
  } catch {
    // Storage refused: the cookie alone.
  }
  return cookieValue(name)
}

export function keepChoice(name: string, value: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`
  try {
    localStorage.setItem(name, value)
  } catch {
    // Private mode: the cookie alone keeps it.
  }
}

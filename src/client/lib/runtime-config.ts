import type { ClientConfig, SignInProvider } from '@/shared/client-config'

/**
 * Checks `/config.json` by hand: this runs before the first render, and a schema library here
 * would weigh on every first page.
 */
export function parseRuntimeConfig(value: unknown): ClientConfig {
  const problems: string[] = []
  const object = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
  if (!object(value)) throw new Error('Invalid /config.json: not an object')
  const text = (key: string) => {
    const v = value[key]
    if (typeof v !== 'string') problems.push(key)
    return typeof v === 'string' ? v : ''
  }
  const named = (v: unknown): v is SignInProvider =>
    object(v) && typeof v.id === 'string' && v.id !== '' && typeof v.name === 'string' && v.name !== ''
  // Missing (a server without providers): no provider buttons.
  const list = value.providers ?? []
  if (!Array.isArray(list)) problems.push('providers')
  const providers = Array.isArray(list)
    ? list.flatMap((item: unknown, index) => {
        if (named(item)) return [{ id: item.id, name: item.name }]
        problems.push(`providers[${index}]`)
        return []
      })
    : []
  const config: ClientConfig = {
    apiBaseUrl: text('apiBaseUrl').replace(/\/+$/, ''),
    appName: text('appName'),
    version: text('version'),
    providers,
  }
  if (problems.length > 0) throw new Error(`Invalid /config.json: ${problems.join(', ')}`)
  return config
}

let current: ClientConfig | undefined

/** Read once at start (the HTML preloads it), so one build runs against any backend. */
export async function loadRuntimeConfig(): Promise<ClientConfig> {
  const response = await fetch('/config.json', { headers: { Accept: 'application/json' } })
  if (!response.ok) throw new Error(`Could not load /config.json (HTTP ${response.status})`)
  current = parseRuntimeConfig(await response.json())
  return current
}

/** The configuration the page was rendered with (lib/rendered-state.ts): no request for it. */
export function setRuntimeConfig(config: ClientConfig) {
  current = config
}

export function runtimeConfig(): ClientConfig {
  if (!current) throw new Error('Runtime configuration read before it was loaded')
  return current
}

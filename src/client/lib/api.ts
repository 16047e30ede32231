import { isApiErrorBody } from '@/shared/errors'
import { ApiRequestError, NetworkError } from './http-error'
import { locale } from './i18n'
import { runtimeConfig } from './runtime-config'

export interface ApiOptions extends Omit<RequestInit, 'body'> {
  /** Sent as JSON. */
  json?: unknown
}

/** The one way the client calls the API: JSON in, JSON out, failures as typed errors. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { json, headers, ...init } = options
  let response: Response
  try {
    response = await fetch(`${runtimeConfig().apiBaseUrl}${path}`, {
      credentials: 'same-origin',
      ...init,
      headers: {
        Accept: 'application/json',
        // Emails the request causes are written in the interface language.
        'Accept-Language': locale.get(),
        ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new NetworkError(error)
  }
  if (response.status === 204) return undefined as T
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'))
    if (isApiErrorBody(body)) {
      const { code, message, fields } = body.error
      throw new ApiRequestError(
        response.status,
        code,
        message,
        fields,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      )
    }
    throw new ApiRequestError(response.status, 'unknown', response.statusText)
  }
  return body as T
}

/** A query string of the parameters that have a value (`{ q: '', page: 2 }` → `page=2`). */
export function searchOf(params: object): string {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== '')
  return new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()
}

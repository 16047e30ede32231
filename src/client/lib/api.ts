import { isApiErrorBody } from '@/shared/errors'
import { ApiRequestError, NetworkError } from './http-error'
import { locale } from './i18n'
import { runtimeConfig } from './runtime-config'

export interface ApiOptions extends RequestInit {
  /** Sent as JSON. */
  json?: unknown
  /** Or a `body` as it is: a FormData is sent as multipart/form-data (the browser writes its boundary). */
  body?: FormData
}

/** The one way the client calls the API: JSON in, JSON out, failures as typed errors. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { json, headers, ...init } = options
  const response = await send(path, {
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
  if (response.status === 204) return undefined as T
  return (await response.json().catch(() => undefined)) as T
}

/**
 * Sends a request to the API and answers its successful response: a failed answer is thrown as
 * the error the client throws (`failureOf`), an unreachable server as a NetworkError.
 */
async function send(path: string, init: RequestInit): Promise<Response> {
  let response: Response
  try {
    response = await fetch(`${runtimeConfig().apiBaseUrl}${path}`, { credentials: 'same-origin', ...init })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new NetworkError(error)
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined)
    throw failureOf(response.status, response.statusText, body, response.headers.get('Retry-After'))
  }
  return response
}

/** A failed answer as the error the client throws: the API's error shape, or its status. */
function failureOf(status: number, statusText: string, body: unknown, retryAfterHeader: string | null): ApiRequestError {
  const retryAfter = Number(retryAfterHeader ?? Number.NaN)
  if (isApiErrorBody(body)) {
    const { code, message, fields } = body.error
    return new ApiRequestError(status, code, message, fields, Number.isFinite(retryAfter) ? retryAfter : undefined)
  }
  return new ApiRequestError(status, 'unknown', statusText)
}

/**
 * Sends a file as the body of a PUT (a picture) and answers the JSON that comes back; `onProgress`
 * is told the share sent so far (0–1). Through XMLHttpRequest: fetch does not report an upload's
 * progress. A CSV import is small and sent by `apiPostFile`.
 */
export function apiUpload<T>(path: string, file: Blob, onProgress: (sent: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('PUT', `${runtimeConfig().apiBaseUrl}${path}`)
    request.setRequestHeader('Accept', 'application/json')
    request.setRequestHeader('Accept-Language', locale.get())
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    request.responseType = 'json'
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    })
    request.addEventListener('load', () => {
      const body: unknown = request.response
      if (request.status >= 200 && request.status < 300) resolve(body as T)
      else reject(failureOf(request.status, request.statusText, body, request.getResponseHeader('Retry-After')))
    })
    request.addEventListener('error', () => reject(new NetworkError(new Error('upload failed'))))
    request.send(file)
  })
}

/**
 * Sends a file as the body of a POST (`type`: its media type, e.g. `text/csv`) and answers the
 * JSON that comes back; failures are thrown as `api` throws them. Every CSV import goes so.
 */
export async function apiPostFile<T>(path: string, file: Blob, type: string): Promise<T> {
  const response = await send(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Accept-Language': locale.get(), 'Content-Type': type },
    body: file,
  })
  return (await response.json()) as T
}

/** Downloads a file the API answers: its bytes and the name the server gives it. */
export async function apiDownload(path: string, fallbackName: string): Promise<{ blob: Blob; name: string }> {
  const response = await send(path, {})
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName
  return { blob: await response.blob(), name }
}

/** A query string of the parameters that have a value (`{ q: '', page: 2 }` → `page=2`). */
export function searchOf(params: object): string {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== '')
  return new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()
}

import { createParser } from 'eventsource-parser'
import { LIVE_EVENTS_PATH, LIVE_HEARTBEAT_MS, type LiveEventName, type LiveEvents } from '@/shared/live'

/**
 * The live stream of this tab (`GET /api/events`, docs/decisions/0013-live-updates.md): one
 * connection, read with fetch (so that a reconnect made here sends `Last-Event-ID`), made again
 * after a failure with a growing, jittered delay, and at once when who is signed in changes.
 * Features hear its events through `onLive`.
 */

type Listener<K extends LiveEventName> = (data: LiveEvents[K]) => void

const listeners = new Map<LiveEventName, Set<Listener<never>>>()

/** Calls `listener` with every `name` event of the stream. Returns the function that stops it. */
export function onLive<K extends LiveEventName>(name: K, listener: Listener<K>): () => void {
  let named = listeners.get(name)
  if (!named) listeners.set(name, (named = new Set()))
  named.add(listener)
  return () => named.delete(listener)
}

function dispatch(name: string, data: string): void {
  const named = listeners.get(name as LiveEventName)
  if (!named) return
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch {
    return
  }
  for (const listener of named) (listener as (data: unknown) => void)(parsed)
}

/** The first wait before reconnecting, and the longest. */
const RETRY_FIRST_MS = 500
const RETRY_MAX_MS = 30_000
/** No byte for this long (heartbeats come every 15 s): the connection is taken for lost. */
const SILENCE_MS = LIVE_HEARTBEAT_MS * 2 + 5_000

/** Between half and all of the attempt's exponential delay: clients do not come back together. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt)
  return Math.round(ceiling * (0.5 + random() / 2))
}

let lastEventId: string | undefined
let current: AbortController | undefined
let wake: (() => void) | undefined

/** `data-live` on the root element: `open` once the stream is ready (tests and tools read it). */
function setStatus(status: 'connecting' | 'open') {
  document.documentElement.dataset.live = status
}

/** One connection, until it ends (the server closed it, or it was lost or aborted). */
async function connect(signal: AbortSignal, opened: () => void): Promise<void> {
  const response = await fetch(LIVE_EVENTS_PATH, {
    headers: { Accept: 'text/event-stream', ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
    cache: 'no-store',
    signal,
  })
  if (!response.ok || !response.body) {
    await response.body?.cancel()
    return
  }
  const parser = createParser({
    onEvent: ({ id, event, data }) => {
      if (id !== undefined) lastEventId = id
      if (event === 'ready') {
        setStatus('open')
        opened()
      }
      if (event) dispatch(event, data)
    },
  })
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let silence: ReturnType<typeof setTimeout> | undefined
  const watch = () => {
    clearTimeout(silence)
    silence = setTimeout(() => void reader.cancel(), SILENCE_MS)
  }
  try {
    watch()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      watch()
      parser.feed(value)
    }
  } finally {
    clearTimeout(silence)
  }
}

/** Keeps the stream open for as long as the page lives. */
async function run(): Promise<void> {
  let attempt = 0
  for (;;) {
    const controller = new AbortController()
    current = controller
    setStatus('connecting')
    await connect(controller.signal, () => (attempt = 0)).catch(() => undefined)
    // Restarted on purpose (signed in or out): at once, as the new identity.
    if (controller.signal.aborted) continue
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, reconnectDelay(attempt++))
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    wake = undefined
  }
}

let started = false

/** Opens the stream (once); back online, a waiting reconnect is made at once. */
export function startLive(): void {
  if (started || typeof fetch === 'undefined') return
  started = true
  window.addEventListener('online', () => wake?.())
  void run()
}

/**
 * Opens the stream again at once, e.g. as the person who just signed in or out: the server
 * decides what a stream hears from its session. What was missed meanwhile is sent again.
 */
export function restartLive(): void {
  if (!started) return
  current?.abort()
  wake?.()
}

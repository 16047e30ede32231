// The load client of bench/live.mjs, run as a worker thread (one per instance, so that the 5,000
// streams of one instance do not delay the reading of the other's): plain HTTP/1.1 connections to
// GET /api/events, read just enough to see `ready`, the `levels` events' ids and the heartbeats.
// Times are `performance.timeOrigin + performance.now()` (milliseconds since the epoch, below the
// millisecond), comparable with the main thread's.
//
// workerData: { url } (the instance). Messages, each answered with one of the same `type`:
//   { type: 'open', count, batch, timeoutMs } → { opened, failures: { reason: n }, ms }
//   { type: 'arrivals' }                        → { byId: { id: [times] }, open, ended, heartbeats }
//   { type: 'close' }                           → {}
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

const target = new URL(workerData.url)
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
const now = () => performance.timeOrigin + performance.now()

/** Open streams; `levels` arrival times by event id (one entry per stream that got it). */
const streams = new Set()
const arrivals = new Map()
let ended = 0
let heartbeats = 0

/** Reads the SSE blocks in `text` (complete ones only); returns what is left for the next chunk. */
function readBlocks(text, at, onReady) {
  let rest = text
  for (let end = rest.indexOf('\n\n'); end !== -1; end = rest.indexOf('\n\n')) {
    const block = rest.slice(0, end)
    rest = rest.slice(end + 2)
    if (block.startsWith(':')) {
      heartbeats++
      continue
    }
    const fields = Object.fromEntries(block.split('\n').map((line) => line.split(/: ?(.*)/s, 2)))
    if (fields.event === 'ready') onReady()
    else if (fields.event === 'levels') {
      const id = Number(fields.id)
      if (!arrivals.has(id)) arrivals.set(id, [])
      arrivals.get(id).push(at)
    }
  }
  return rest
}

/** One stream: resolves to null once `ready` came, or to the reason it failed. */
function openStream(timeoutMs) {
  return new Promise((resolve) => {
    let settled = false
    const settle = (reason) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(reason)
    }
    const request = http.request({
      host: target.hostname,
      port: target.port,
      path: '/api/events',
      headers: { Accept: 'text/event-stream' },
      agent,
    })
    const timer = setTimeout(() => {
      request.destroy()
      settle('timeout')
    }, timeoutMs)
    request.on('error', (error) => settle(error.code ?? error.message))
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume()
        settle(`HTTP ${response.statusCode}`)
        return
      }
      streams.add(request)
      let buffer = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => {
        buffer = readBlocks(buffer + chunk, now(), () => settle(null))
      })
      response.on('close', () => {
        if (streams.delete(request)) ended++
        settle('closed before ready')
      })
    })
    request.end()
  })
}

/** Opens `count` streams, `batch` at a time (each batch waits for its `ready`s). */
async function open({ count, batch, timeoutMs }) {
  const started = now()
  const failures = {}
  let opened = 0
  for (let done = 0; done < count; done += batch) {
    const reasons = await Promise.all(Array.from({ length: Math.min(batch, count - done) }, () => openStream(timeoutMs)))
    for (const reason of reasons) {
      if (reason === null) opened++
      else failures[reason] = (failures[reason] ?? 0) + 1
    }
  }
  return { opened, failures, ms: now() - started }
}

function close() {
  for (const request of streams) {
    streams.delete(request)
    request.destroy()
  }
  agent.destroy()
  return {}
}

const handlers = {
  open,
  arrivals: () => ({ byId: Object.fromEntries(arrivals), open: streams.size, ended, heartbeats }),
  close,
}

parentPort.on('message', async (message) => {
  parentPort.postMessage({ type: message.type, ...(await handlers[message.type](message)) })
})

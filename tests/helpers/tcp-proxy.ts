import net from 'node:net'

/**
 * A TCP proxy between the server and a service (PostgreSQL), to make that service unreachable the
 * ways a network does, without touching the service itself:
 * - `blackhole()`: nothing passes any more, and nothing is refused either. Open connections stay
 *   open but carry nothing (what was sent waits, as on a partitioned network); new connections are
 *   accepted and never answered. The client only learns of it from its own timeouts: the hard case.
 * - `refuse()`: open connections are reset and new ones refused (ECONNREFUSED), as when the
 *   service's host is up but the service is down.
 * - `restore()`: the network heals. What waited in a black hole is delivered, late; the connections
 *   accepted meanwhile are put through, if their client still wants them.
 */
export interface TcpProxy {
  readonly port: number
  readonly mode: ProxyMode
  /** Connections open between a client and the proxy. */
  readonly connections: number
  blackhole(): void
  refuse(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

type ProxyMode = 'forward' | 'blackhole' | 'refuse'

interface Pair {
  client: net.Socket
  upstream: net.Socket | undefined
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward'
  const pairs = new Set<Pair>()

  const forward = (pair: Pair) => {
    const upstream = (pair.upstream ??= connectUpstream(pair))
    pair.client.pipe(upstream)
    upstream.pipe(pair.client)
  }
  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(target.port, target.host)
    upstream.setNoDelay(true)
    upstream.on('error', () => pair.client.destroy())
    upstream.on('close', () => pair.client.destroy())
    return upstream
  }
  /** Stops both directions; what arrives stays in the sockets' buffers until `forward` again. */
  const hold = (pair: Pair) => {
    pair.client.unpipe()
    pair.upstream?.unpipe()
    pair.client.pause()
    pair.upstream?.pause()
  }

  const listener = net.createServer((client) => {
    client.setNoDelay(true)
    const pair: Pair = { client, upstream: undefined }
    pairs.add(pair)
    client.on('error', () => pair.upstream?.destroy())
    client.on('close', () => {
      pair.upstream?.destroy()
      pairs.delete(pair)
    })
    if (mode === 'forward') forward(pair)
    else hold(pair)
  })
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      listener.once('error', reject)
      listener.listen(port, '127.0.0.1', () => {
        listener.off('error', reject)
        resolve()
      })
    })

  let port = 0
  await listen()
  port = (listener.address() as net.AddressInfo).port

  return {
    port,
    get mode() {
      return mode
    },
    get connections() {
      return pairs.size
    },
    blackhole() {
      mode = 'blackhole'
      for (const pair of pairs) hold(pair)
    },
    async refuse() {
      mode = 'refuse'
      // Stop listening first: from now on the port refuses.
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()))
      for (const pair of pairs) {
        pair.client.resetAndDestroy()
        pair.upstream?.destroy()
      }
      await closed
    },
    async restore() {
      if (mode === 'refuse') await listen()
      mode = 'forward'
      for (const pair of pairs) forward(pair)
    },
    async close() {
      const closed = listener.listening ? new Promise<void>((resolve) => listener.close(() => resolve())) : undefined
      for (const pair of pairs) {
        pair.client.destroy()
        pair.upstream?.destroy()
      }
      await closed
    },
  }
}

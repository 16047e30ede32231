import { EventEmitter, once } from 'node:events'
import net, { type AddressInfo } from 'node:net'
import { SMTPServer, type SMTPServerAddress } from 'smtp-server'

/** One email as the test SMTP server received it, decoded. */
export interface ReceivedMail {
  /** The SMTP envelope (MAIL FROM / RCPT TO), which is where the email really goes. */
  envelope: { from: string | undefined; to: string[] }
  /** The user name the client logged in with, if it did. */
  user: string | undefined
  /** Header values by lower-case name (the first of each), with encoded words decoded. */
  headers: Map<string, string>
  from: string
  to: string
  subject: string
  /** The text/plain part, line endings as `\n`. */
  text: string | undefined
  /** The text/html part, line endings as `\n`. */
  html: string | undefined
  /** The message as sent, for debugging. */
  raw: string
}

export interface SmtpServerOptions {
  /** Require this login (PLAIN or LOGIN, over plain TCP); default: no authentication. */
  auth?: { user: string; pass: string }
  /** Default: a free port. */
  port?: number
}

export interface TestSmtpServer {
  /** `smtp://[user:pass@]127.0.0.1:<port>` */
  url: string
  port: number
  /** Every email received so far, in arrival order. */
  messages: ReceivedMail[]
  /** The first email (received already or arriving within the timeout) that matches. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  stop(): Promise<void>
}

/** A real SMTP server on a free port of 127.0.0.1, keeping what it receives in memory. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = []
  const events = new EventEmitter()
  const { auth } = options

  const server = new SMTPServer({
    // Plain TCP on loopback; the client must not try STARTTLS against a self-signed certificate.
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    // Pooled client connections stay open; do not let them hold stop() for long.
    closeTimeout: 1_000,
    logger: false,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) {
        callback(null, { user: login.username })
      } else {
        callback(new Error('Invalid username or password'))
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        try {
          const mail = parseMail(Buffer.concat(chunks).toString('latin1'))
          const address = (value: SMTPServerAddress | false) => (value ? value.address : undefined)
          const received: ReceivedMail = {
            ...mail,
            envelope: {
              from: address(session.envelope.mailFrom),
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            user: typeof session.user === 'string' ? session.user : undefined,
          }
          messages.push(received)
          events.emit('message', received)
          callback()
        } catch (error) {
          callback(error as Error)
        }
      })
    },
  })

  server.listen(options.port ?? 0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  const credentials = auth
    ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@`
    : ''

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const onMessage = (mail: ReceivedMail) => {
          if (!predicate(mail)) return
          cleanup()
          resolve(mail)
        }
        const timer = setTimeout(() => {
          cleanup()
          const seen = messages.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'
          reject(new Error(`No matching email within ${timeoutMs} ms (received: ${seen})`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          events.off('message', onMessage)
        }
        events.on('message', onMessage)
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs. */
export async function startSilentServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

// A small MIME reader: enough for what nodemailer writes (headers with RFC 2047 encoded words,
// multipart/alternative, quoted-printable or base64 UTF-8 parts). The raw message is handled as
// latin1 so that every byte survives until it is decoded as UTF-8.

interface Entity {
  headers: Map<string, string>
  body: string
}

function parseMail(raw: string): Omit<ReceivedMail, 'envelope' | 'user'> {
  const root = parseEntity(raw)
  const leaves = collectLeaves(root)
  const part = (type: string) => {
    const leaf = leaves.find((entity) => mediaType(entity) === type)
    return leaf ? decodeBody(leaf).replace(/\r\n/g, '\n') : undefined
  }
  return {
    headers: root.headers,
    from: root.headers.get('from') ?? '',
    to: root.headers.get('to') ?? '',
    subject: root.headers.get('subject') ?? '',
    text: part('text/plain'),
    html: part('text/html'),
    raw: Buffer.from(raw, 'latin1').toString('utf8'),
  }
}

function parseEntity(raw: string): Entity {
  const end = raw.search(/\r?\n\r?\n/)
  const head = end === -1 ? raw : raw.slice(0, end)
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '')
  const headers = new Map<string, string>()
  // Unfold: a line break followed by white space continues the previous header.
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()))
  }
  return { headers, body }
}

function mediaType(entity: Entity): string {
  return (entity.headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase()
}

function parameter(header: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header ?? '')
  return match ? (match[1] ?? match[2]) : undefined
}

function collectLeaves(entity: Entity): Entity[] {
  if (!mediaType(entity).startsWith('multipart/')) return [entity]
  const boundary = parameter(entity.headers.get('content-type'), 'boundary')
  if (!boundary) throw new Error('multipart entity without a boundary')
  const leaves: Entity[] = []
  for (const segment of entity.body.split(`--${boundary}`).slice(1)) {
    if (segment.startsWith('--')) break
    leaves.push(...collectLeaves(parseEntity(segment.replace(/^\r?\n/, '').replace(/\r?\n$/, ''))))
  }
  return leaves
}

function decodeBody(entity: Entity): string {
  const charset = (
    parameter(entity.headers.get('content-type'), 'charset') ?? 'utf-8'
  ).toLowerCase()
  if (charset !== 'utf-8' && charset !== 'us-ascii')
    throw new Error(`unexpected charset ${charset}`)
  const encoding = (entity.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()
  if (encoding === 'base64')
    return Buffer.from(entity.body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(entity.body)
  return Buffer.from(entity.body, 'latin1').toString('utf8')
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/[ \t]+(?=\r?\n)/g, '')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

const encodedWord = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g

/** RFC 2047: `=?UTF-8?Q?...?=` / `=?UTF-8?B?...?=`, adjacent words joined before UTF-8 decoding. */
function decodeWords(value: string): string {
  // White space between two encoded words is not part of the text.
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1')
  let result = ''
  let pending: number[] = []
  let last = 0
  const flush = () => {
    result += Buffer.from(pending).toString('utf8')
    pending = []
  }
  for (const match of joined.matchAll(encodedWord)) {
    const [word, charset, encoding, payload] = match as unknown as [string, string, string, string]
    if (match.index > last) {
      flush()
      result += Buffer.from(joined.slice(last, match.index), 'latin1').toString('utf8')
    }
    if (!/^utf-8(\*.*)?$/i.test(charset)) throw new Error(`unexpected charset ${charset}`)
    if (encoding.toUpperCase() === 'B') {
      pending.push(...Buffer.from(payload, 'base64'))
    } else {
      const text = payload
        .replace(/_/g, ' ')
        .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      pending.push(...Buffer.from(text, 'latin1'))
    }
    last = match.index + word.length
  }
  flush()
  return result + Buffer.from(joined.slice(last), 'latin1').toString('utf8')
}

import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Context } from 'hono'

/** A body as is and compressed, made once and sent many times. */
export interface Encoded {
  identity: Buffer
  br: Buffer
  gzip: Buffer
}

const compressBrotli = promisify(brotliCompress)
const compressGzip = promisify(gzip)

/** Compresses `identity` once, in the thread pool. */
export async function encode(identity: Buffer): Promise<Encoded> {
  const [br, gzipped] = await Promise.all([
    compressBrotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    compressGzip(identity, { level: 9 }),
  ])
  return { identity, br, gzip: gzipped }
}

function preferredEncoding(acceptEncoding: string | undefined): keyof Encoded {
  const accepted = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, quality]) => !quality || !/^\s*q\s*=\s*0(\.0*)?\s*$/i.test(quality))
    .map(([name]) => name?.trim().toLowerCase())
  if (accepted.includes('br')) return 'br'
  if (accepted.includes('gzip')) return 'gzip'
  return 'identity'
}

/** The encoding the client takes best, with Content-Encoding set; the caller sets the rest. */
export function sendEncoded(c: Context, content: Encoded, status: 200 | 404 = 200): Response {
  const encoding = preferredEncoding(c.req.header('accept-encoding'))
  if (encoding !== 'identity') c.header('Content-Encoding', encoding)
  const bytes = content[encoding]
  // Node's Buffers sit on plain ArrayBuffers (never shared ones); no copy.
  return c.body(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), status)
}

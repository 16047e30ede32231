import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AVATAR_UPLOADS } from '@/server/api/avatars/routes'
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS } from '@/shared/avatars'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { type Client, freshUser } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { expectApiError, expectJson, openUpload } from '../helpers/server'

/*
 * Profile pictures: uploaded as the body of PUT /api/me/avatar, decoded and encoded again by the
 * server as square WebP at 256 and 64 px, served publicly at a URL naming that one picture. Every
 * picture here is made by sharp in the test; the served ones are read back with sharp.
 */

interface Colour {
  r: number
  g: number
  b: number
}
const red: Colour = { r: 255, g: 0, b: 0 }
const blue: Colour = { r: 0, g: 0, b: 255 }
const green: Colour = { r: 0, g: 160, b: 0 }
const yellow: Colour = { r: 255, g: 220, b: 0 }
const purple: Colour = { r: 128, g: 0, b: 128 }

/** A picture of one colour. */
const canvas = (width: number, height: number, background: Colour) =>
  sharp({ create: { width, height, channels: 3, background } })

/** A picture whose left half is `left` and right half `right`. */
const halves = (width: number, height: number, left: Colour, right: Colour) =>
  canvas(width, height, left).composite([
    { input: { create: { width: width / 2, height, channels: 3, background: right } }, left: width / 2, top: 0 },
  ])

/** Noise: it compresses badly, so a cut through the file cuts through the picture data. */
const noise = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: red, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })

/** The colour of one pixel of a picture. */
async function colourAt(file: Buffer, x: number, y: number): Promise<Colour> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return { r: data[at] ?? -1, g: data[at + 1] ?? -1, b: data[at + 2] ?? -1 }
}

/** WebP is lossy: a colour is "the same" within a margin that still tells red, blue and green apart. */
async function expectColour(file: Buffer, x: number, y: number, expected: Colour, what: string) {
  const actual = await colourAt(file, x, y)
  for (const channel of ['r', 'g', 'b'] as const) {
    expect(Math.abs(actual[channel] - expected[channel]), `${what} at (${x}, ${y}): ${JSON.stringify(actual)}`).toBeLessThan(48)
  }
}

/** The GPS latitude (degrees, minutes, seconds) in an EXIF block, read from its TIFF structure. */
function gpsLatitude(exif: Buffer | undefined): number[] | undefined {
  if (!exif) return undefined
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') + 6)
  const little = tiff.toString('latin1', 0, 2) === 'II'
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset))
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset))
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => ifd + 2 + i * 12).map((at) => ({ tag: u16(at), count: u32(at + 4), value: u32(at + 8) }))
  // IFD0's GPSInfo (0x8825) points at the GPS IFD, whose tag 2 is the latitude: three rationals.
  const gps = entries(u32(4)).find((entry) => entry.tag === 0x8825)
  const latitude = gps && entries(gps.value).find((entry) => entry.tag === 0x0002)
  if (!latitude) return undefined
  return Array.from({ length: latitude.count }, (_, i) => u32(latitude.value + i * 8) / u32(latitude.value + i * 8 + 4))
}

/** An XMP packet as photo software writes it into a JPEG: XML, but not markup a browser would run. */
const xmpPacket = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.6-c140">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`

const pictureUrl = /^\/api\/avatars\/([A-Za-z0-9]{32})\/([0-9a-f]{20})-256\.webp$/
/** The 64 px URL of a picture whose 256 px URL is `image`. */
const smallOf = (image: string) => image.replace(/-256\.webp$/, '-64.webp')

describe.each(databaseTargets())('profile pictures on %s', (target) => {
  let world: AdminWorld
  let accounts = 0
  beforeAll(async () => {
    world = await startAdminWorld(target, 'avatars')
  })
  afterAll(async () => {
    await world.stop()
  })

  /**
   * A new signed-in account: uploads are limited per account (10 in 10 minutes, refusals included),
   * so each test uses accounts of its own.
   */
  const newAccount = () => world.signUp(`avatar-${++accounts}-${target}@example.com`)

  /** Sends `file` as the body of the upload, as the account page does (the client's JSON helper cannot). */
  function upload(
    client: Client,
    file: Buffer | string,
    { type = 'image/png', query = '', origin = world.server.url }: { type?: string; query?: string; origin?: string } = {},
  ) {
    return client.request('PUT', `/api/me/avatar${query}`, undefined, {
      body: typeof file === 'string' ? file : new Uint8Array(file),
      // These replace the client's own headers: its Origin and cookies are given again.
      headers: {
        'Content-Type': type,
        Origin: origin,
        ...(client.cookies.size > 0 ? { Cookie: client.cookieHeader() } : {}),
      },
    })
  }

  /** Uploads `file`, expects it taken, and answers the picture's URL (256 px). */
  async function uploaded(client: Client, file: Buffer, options: { type?: string; query?: string } = {}): Promise<string> {
    const response = await upload(client, file, options)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { image } = await expectJson<{ image: string }>(response)
    expect(image).toMatch(pictureUrl)
    return image
  }

  /** The account's `image`, as the database has it now. */
  const imageOf = async (client: Client) => ((await freshUser(client)) as { image?: string | null } | null)?.image

  /** Fetches a picture as anyone would: no cookie, no Origin. */
  const fetchPicture = (url: string) => fetch(`${world.server.url}${url}`)

  /** Fetches a picture, expects it served, and answers its bytes. */
  async function served(url: string): Promise<Buffer> {
    const response = await fetchPicture(url)
    expect(response.status, url).toBe(200)
    return Buffer.from(await response.arrayBuffer())
  }

  /** Both sizes of the picture at `image` answer 404 in the error shape. */
  async function expectGone(image: string) {
    for (const url of [image, smallOf(image)]) await expectApiError(await fetchPicture(url), 404, 'not_found')
  }

  it('takes JPEG, PNG, WebP, AVIF and GIF, and serves each as square WebP at 256 and 64 px', async () => {
    const client = await newAccount()
    const id = ((await freshUser(client)) as { id?: string } | null)?.id
    const formats = [
      { format: 'jpeg', type: 'image/jpeg', colour: red },
      { format: 'png', type: 'image/png', colour: blue },
      // A file of an unnamed type is taken too: its bytes say what it is.
      { format: 'webp', type: 'application/octet-stream', colour: green },
      { format: 'avif', type: 'image/avif', colour: yellow },
      { format: 'gif', type: 'image/gif', colour: purple },
    ] as const
    for (const { format, type, colour } of formats) {
      // Not square: the middle square is kept.
      const file = await canvas(300, 200, colour).toFormat(format).toBuffer()
      // sharp calls AVIF by its container's name.
      expect((await sharp(file).metadata()).format).toBe(format === 'avif' ? 'heif' : format)

      const image = await uploaded(client, file, { type })
      expect(pictureUrl.exec(image)?.[1], format).toBe(id)
      expect(await imageOf(client), format).toBe(image)
      for (const [url, size] of [[image, 256], [smallOf(image), 64]] as const) {
        const bytes = await served(url)
        const metadata = await sharp(bytes).metadata()
        expect({ format: metadata.format, width: metadata.width, height: metadata.height }, `${format} at ${size} px`).toEqual(
          { format: 'webp', width: size, height: size },
        )
        await expectColour(bytes, size / 2, size / 2, colour, `${format} at ${size} px`)
      }
    }
  })

  it('applies a photo’s EXIF orientation and serves it without any metadata: no GPS position, no XMP', async () => {
    const client = await newAccount()
    const marker = 'camera-owner-marker-7f3a'
    // Stored 200 × 100, left half red and right half blue; orientation 6 says "turn a quarter
    // clockwise to show": shown 100 × 200, red on top, blue below.
    const file = await halves(200, 100, red, blue)
      .jpeg()
      .withExif({
        IFD0: { Copyright: marker },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
      })
      .withMetadata({ orientation: 6 })
      .withXmp(xmpPacket)
      .toBuffer()
    const sent = await sharp(file).metadata()
    expect({ orientation: sent.orientation, width: sent.width, height: sent.height }).toEqual({ orientation: 6, width: 200, height: 100 })
    expect(gpsLatitude(sent.exif)).toEqual([48, 51, 24])
    expect(sent.xmp?.toString()).toContain('Ada Lovelace')

    const image = await uploaded(client, file, { type: 'image/jpeg' })
    for (const [url, size] of [[image, 256], [smallOf(image), 64]] as const) {
      const bytes = await served(url)
      const metadata = await sharp(bytes).metadata()
      expect({ exif: metadata.exif, xmp: metadata.xmp, icc: metadata.icc, orientation: metadata.orientation }, url).toEqual({
        exif: undefined,
        xmp: undefined,
        icc: undefined,
        orientation: undefined,
      })
      expect(bytes.includes(marker)).toBe(false)
      expect(bytes.includes('Ada Lovelace')).toBe(false)
      // The middle square of the picture as shown: red above, blue below, in all four quarters.
      // Not turned, it would be red left and blue right; turned the other way, blue on top.
      const quarter = size / 4
      await expectColour(bytes, quarter, quarter, red, 'top left')
      await expectColour(bytes, 3 * quarter, quarter, red, 'top right')
      await expectColour(bytes, quarter, 3 * quarter, blue, 'bottom left')
      await expectColour(bytes, 3 * quarter, 3 * quarter, blue, 'bottom right')
    }

    // The square is given in pixels of the picture as shown: its lower square is all blue (in
    // the file's own 200 × 100 there is nothing 100 px down).
    const lower = await served(await uploaded(client, file, { type: 'image/jpeg', query: '?left=0&top=100&size=100' }))
    for (const [x, y] of [[16, 16], [240, 16], [16, 240], [240, 240], [128, 128]] as const) {
      await expectColour(lower, x, y, blue, 'the lower square')
    }
  })

  it('keeps the square asked for (left, top, size, in pixels), inside the picture, and refuses a partial one', async () => {
    const client = await newAccount()
    // 400 × 200: the left square red, the right square blue.
    const file = await halves(400, 200, red, blue).png().toBuffer()
    const corners = [[16, 16], [240, 16], [16, 240], [240, 240]] as const

    const right = await served(await uploaded(client, file, { query: '?left=200&top=0&size=200' }))
    for (const [x, y] of corners) await expectColour(right, x, y, blue, 'the right square')
    const left = await served(await uploaded(client, file, { query: '?left=0&top=0&size=200' }))
    for (const [x, y] of corners) await expectColour(left, x, y, red, 'the left square')
    // A smaller square across the middle: half of each, scaled up to 256 px.
    const middle = await served(await uploaded(client, file, { query: '?left=150&top=50&size=100' }))
    await expectColour(middle, 32, 128, red, 'the left of the middle square')
    await expectColour(middle, 224, 128, blue, 'the right of the middle square')
    // Beyond the picture: the square is moved and shrunk to fit, here the right one.
    const beyond = await served(await uploaded(client, file, { query: '?left=1000&top=1000&size=5000' }))
    for (const [x, y] of corners) await expectColour(beyond, x, y, blue, 'a square beyond the picture')

    const image = await imageOf(client)
    for (const query of ['?left=0&top=0', '?size=100', '?left=-1&top=0&size=100', '?left=a&top=0&size=100']) {
      await expectApiError(await upload(client, file, { query }), 400, 'validation_failed')
    }
    expect(await imageOf(client)).toBe(image)
  })

  it('keeps the first frame of an animated GIF', async () => {
    const client = await newAccount()
    const frame = (colour: Colour) => canvas(64, 64, colour).png().toBuffer()
    const file = await sharp([await frame(red), await frame(blue)], { join: { animated: true } }).gif().toBuffer()
    expect(await sharp(file).metadata()).toMatchObject({ format: 'gif', pages: 2, width: 64, height: 64 })

    const bytes = await served(await uploaded(client, file, { type: 'image/gif' }))
    const metadata = await sharp(bytes).metadata()
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 })
    expect(metadata.pages ?? 1).toBe(1)
    await expectColour(bytes, 128, 128, red, 'the first frame')
  })

  /** A signed-in account with a picture, and a check that neither has changed since. */
  async function withPicture() {
    const client = await newAccount()
    const image = await uploaded(client, await canvas(64, 64, green).png().toBuffer())
    const bytes = await served(image)
    return {
      client,
      expectUnchanged: async (what: string) => {
        expect(await imageOf(client), what).toBe(image)
        expect((await served(image)).equals(bytes), what).toBe(true)
      },
    }
  }

  it('refuses with 415 what is not a picture (SVG, HTML, a PNG carrying a script, a JSON type), keeping the picture before', async () => {
    const { client, expectUnchanged } = await withPicture()
    const png = await canvas(64, 64, red).png().toBuffer()
    const script = '<script>alert(document.cookie)</script>'
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="red"/>${script}</svg>`
    const html = `<!doctype html><html><body><img src=x onerror="alert(1)">${script}</body></html>`
    const refused: [what: string, file: Buffer | string, type: string][] = [
      ['an SVG with a script', svg, 'image/svg+xml'],
      ['an SVG sent as a PNG', svg, 'image/png'],
      ['an HTML page sent as a PNG', html, 'image/png'],
      // A polyglot: a real PNG that a browser sniffing it as HTML would run.
      ['a PNG with a script appended', Buffer.concat([png, Buffer.from(script)]), 'image/png'],
      ['a PNG sent as JSON', png, 'application/json'],
      ['a PNG sent as text', png, 'text/plain'],
    ]
    // The polyglot is a picture to a decoder: only the server's check refuses it.
    expect((await sharp(refused[3]?.[1] as Buffer).metadata()).format).toBe('png')
    for (const [what, file, type] of refused) {
      await expectApiError(await upload(client, file, { type }), 415, 'unsupported_media_type')
      await expectUnchanged(what)
    }
  })

  it('refuses damaged and oversized pictures (400 invalid_image, 400 image_too_large, 413), keeping the picture before', async () => {
    const { client, expectUnchanged } = await withPicture()
    const png = await noise(256, 256).png().toBuffer()
    const jpeg = await noise(256, 256).jpeg().toBuffer()
    for (const [what, file, type] of [
      ['a PNG cut short', png.subarray(0, Math.floor(png.length * 0.6)), 'image/png'],
      ['a JPEG cut short', jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), 'image/jpeg'],
      ['an empty file', Buffer.alloc(0), 'image/png'],
    ] as const) {
      await expectApiError(await upload(client, file, { type }), 400, 'invalid_image')
      await expectUnchanged(what)
    }

    // 50 megapixels of one colour: a small file, but too many pixels to decode (a decompression bomb).
    const bomb = await canvas(8000, 6250, red).png({ compressionLevel: 9 }).toBuffer()
    const bombSize = await sharp(bomb).metadata()
    expect(bombSize.width * bombSize.height).toBeGreaterThan(AVATAR_MAX_PIXELS)
    expect(bomb.length).toBeLessThan(AVATAR_MAX_BYTES)
    await expectApiError(await upload(client, bomb), 400, 'image_too_large')
    await expectUnchanged('a 50-megapixel PNG')

    // Over 5 MB: a PNG padded with noise after its end.
    const heavy = Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES + 1 - png.length, 7)])
    expect(heavy.length).toBe(AVATAR_MAX_BYTES + 1)
    await expectApiError(await upload(client, heavy), 413, 'payload_too_large')
    await expectUnchanged('a file over 5 MB')

    const headers = { cookie: client.cookieHeader(), origin: world.server.url, 'content-type': 'image/png' }
    // Announced over 5 MB: refused from Content-Length, before a byte of the body is sent.
    const announced = openUpload(world.server, {
      method: 'PUT',
      path: '/api/me/avatar',
      headers: { ...headers, 'content-length': String(AVATAR_MAX_BYTES + 1) },
    })
    await expectApiError(await announced.response, 413, 'payload_too_large')
    announced.request.destroy()
    await expectUnchanged('a file announced over 5 MB')

    // Sent chunked, without Content-Length: counted as it arrives.
    const streamed = openUpload(world.server, { method: 'PUT', path: '/api/me/avatar', headers })
    await streamed.continued
    for (let sent = 0; sent <= AVATAR_MAX_BYTES; sent += 65_536) streamed.request.write(sent === 0 ? png : Buffer.alloc(65_536, 7))
    streamed.request.end()
    expect(streamed.request.getHeader('content-length')).toBeUndefined()
    await expectApiError(await streamed.response, 413, 'payload_too_large')
    await expectUnchanged('a file streamed over 5 MB')
  })

  it('serves a picture to anyone, without a cookie, for good, as WebP that no browser sniffs as something else', async () => {
    const client = await newAccount()
    const image = await uploaded(client, await canvas(64, 64, blue).png().toBuffer())
    for (const url of [image, smallOf(image)]) {
      // No cookie and no Origin: an <img> of another page, a mail client, a cache.
      const response = await fetchPicture(url)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/webp')
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.getSetCookie()).toEqual([])
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).format).toBe('webp')
    }

    // Anything but the current picture's two URLs: 404, in the error shape.
    const [, id = '', hash = ''] = pictureUrl.exec(image) ?? []
    const otherId = ((await freshUser(world.learner)) as { id?: string } | null)?.id ?? ''
    for (const url of [
      `/api/avatars/${id}/${hash}-128.webp`,
      `/api/avatars/${id}/${hash}-256.png`,
      `/api/avatars/${id}/${hash.toUpperCase()}-256.webp`,
      `/api/avatars/${id}/${hash.slice(1)}-256.webp`,
      `/api/avatars/${id}/${'0'.repeat(20)}-256.webp`,
      `/api/avatars/${id}/${hash}-256.webp.html`,
      `/api/avatars/${id.slice(1)}/${hash}-256.webp`,
      `/api/avatars/${'a'.repeat(32)}/${hash}-256.webp`,
      // Another account's id with this picture's hash: a picture belongs to its account.
      `/api/avatars/${otherId}/${hash}-256.webp`,
    ]) {
      await expectApiError(await fetchPicture(url), 404, 'not_found')
    }
  })

  it('replaces the picture: the new one at a new URL, the old URLs answer 404', async () => {
    const client = await newAccount()
    const first = await uploaded(client, await canvas(64, 64, red).png().toBuffer())
    await served(first)
    const second = await uploaded(client, await canvas(64, 64, blue).png().toBuffer())
    expect(pictureUrl.exec(second)?.[2]).not.toBe(pictureUrl.exec(first)?.[2])
    expect(await imageOf(client)).toBe(second)
    await expectColour(await served(second), 128, 128, blue, 'the new picture')
    await served(smallOf(second))
    await expectGone(first)
  })

  it('removes the picture: 204, no image on the account, its URLs answer 404; removing again is 204 too', async () => {
    const client = await newAccount()
    const image = await uploaded(client, await canvas(64, 64, red).png().toBuffer())
    const removed = await client.request('DELETE', '/api/me/avatar')
    expect(removed.status).toBe(204)
    expect(await imageOf(client)).toBeNull()
    await expectGone(image)
    expect((await client.request('DELETE', '/api/me/avatar')).status).toBe(204)
    expect(await imageOf(client)).toBeNull()
  })

  it('is for signed-in people: a visitor gets 401 on upload and removal', async () => {
    const png = await canvas(64, 64, red).png().toBuffer()
    await expectApiError(await upload(world.visitor, png), 401, 'unauthenticated')
    await expectApiError(await world.visitor.request('DELETE', '/api/me/avatar'), 401, 'unauthenticated')
  })

  it('refuses an upload or a removal sent from another site (403), changing nothing', async () => {
    const { client, expectUnchanged } = await withPicture()
    const png = await canvas(64, 64, red).png().toBuffer()
    // What a page of another site would send, the victim's cookies attached by the browser.
    await expectApiError(await upload(client, png, { origin: 'https://evil.example' }), 403, 'forbidden')
    await expectUnchanged('a cross-site upload')
    const removal = await client.request('DELETE', '/api/me/avatar', undefined, {
      headers: { Origin: 'https://evil.example', Cookie: client.cookieHeader() },
    })
    await expectApiError(removal, 403, 'forbidden')
    await expectUnchanged('a cross-site removal')
  })

  it(`takes ${AVATAR_UPLOADS.points} uploads per account in ${AVATAR_UPLOADS.seconds / 60} minutes, then 429 with Retry-After; another account is not held back`, async () => {
    const client = await newAccount()
    let last = ''
    for (let i = 0; i < AVATAR_UPLOADS.points; i++) {
      last = await uploaded(client, await canvas(32, 32, { r: i * 20, g: 100, b: 100 }).png().toBuffer())
    }
    const refused = await upload(client, await canvas(32, 32, red).png().toBuffer())
    const retryAfter = Number(refused.headers.get('retry-after'))
    await expectApiError(refused, 429, 'rate_limited')
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(AVATAR_UPLOADS.seconds)
    expect(await imageOf(client)).toBe(last)
    // Counted per account, not per address: another person on the same network still uploads.
    await uploaded(await newAccount(), await canvas(32, 32, red).png().toBuffer())
  })

  it('counts only the uploads it takes: refused files (415, 400, 413) use up none of the limit', async () => {
    const client = await newAccount()
    const png = await canvas(32, 32, red).png().toBuffer()
    for (let i = 0; i < AVATAR_UPLOADS.points; i++) {
      await expectApiError(await upload(client, '<svg/>', { type: 'image/svg+xml' }), 415, 'unsupported_media_type')
      await expectApiError(await upload(client, png.subarray(0, 40)), 400, 'invalid_image')
    }
    await expectApiError(await upload(client, Buffer.alloc(AVATAR_MAX_BYTES + 1, 7)), 413, 'payload_too_large')
    for (let i = 0; i < AVATAR_UPLOADS.points; i++) {
      await uploaded(client, await canvas(32, 32, { r: i * 20, g: 50, b: 50 }).png().toBuffer())
    }
    await expectApiError(await upload(client, png), 429, 'rate_limited')
  })

  it('answers 405 with Allow, in the error shape, to a write at a picture’s URL, whatever its body', async () => {
    const client = await newAccount()
    const image = await uploaded(client, await canvas(32, 32, blue).png().toBuffer())
    const png = await canvas(32, 32, red).png().toBuffer()
    for (const method of ['PUT', 'POST', 'DELETE', 'PATCH']) {
      for (const [body, type] of [[png, 'image/png'], ['{}', 'application/json'], [undefined, undefined]] as const) {
        const response = await client.request(method, image, undefined, {
          body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
          headers: {
            Origin: world.server.url,
            Cookie: client.cookieHeader(),
            ...(type ? { 'Content-Type': type } : {}),
          },
        })
        await expectApiError(response, 405, 'method_not_allowed')
        expect(response.headers.get('allow'), `${method} ${type}`).toMatch(/\bGET\b/)
      }
    }
    await served(image)
  })
})

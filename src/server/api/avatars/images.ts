import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { AVATAR_MAX_PIXELS, AVATAR_SIZES, type AvatarCrop } from '@/shared/avatars'
import { ApiError } from '@/server/http/errors'

/**
 * A picture as sent, turned into what is stored: decoded by sharp (libvips) and encoded again, so
 * that nothing of the file as sent is kept (no metadata, no trailing bytes, no second format).
 */

/** The formats accepted, by the first bytes of the file (what sharp would also decode). */
const signatures: { format: string; matches: (head: Buffer) => boolean }[] = [
  { format: 'jpeg', matches: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { format: 'png', matches: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { format: 'gif', matches: (head) => /^GIF8[79]a/.test(head.toString('latin1', 0, 6)) },
  { format: 'webp', matches: (head) => head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP' },
  // AVIF: an ISO-BMFF file whose `ftyp` box names the avif or avis brand (sharp reports "heif").
  { format: 'heif', matches: (head) => head.toString('latin1', 4, 8) === 'ftyp' && /avi[fs]/.test(head.toString('latin1', 8, 32)) },
]

/**
 * Markup a file must not carry: a picture that is also an HTML page or a script (a polyglot) would
 * be stored re-encoded anyway, but a file built to be two things at once is refused, not cleaned.
 */
const markup = /<(?:script|html|body|svg|iframe|object|embed|!doctype|\?xml|\?php)\b/i

const notAPicture = () => new ApiError('unsupported_media_type', 'Send a JPEG, PNG, WebP, AVIF or GIF picture.')
const unreadable = () => new ApiError('invalid_image', 'The picture could not be read: the file is damaged or incomplete.')

export interface ProcessedAvatar {
  hash: string
  /** 256 × 256 WebP. */
  large: Buffer
  /** 64 × 64 WebP. */
  small: Buffer
}

/**
 * Checks `file` (the bytes as sent) and makes the two pictures: its orientation applied, the square
 * `crop` cut out of it (the middle when none), resized, as WebP without any metadata. GIF and
 * animated WebP give their first frame. Refused: a file that is not one of the formats (415), one
 * with markup in it (415), one that does not decode to its end (400 `invalid_image`), one of more
 * than AVATAR_MAX_PIXELS pixels (400 `image_too_large`, before it is decoded).
 */
export async function processAvatar(file: Buffer, crop: AvatarCrop): Promise<ProcessedAvatar> {
  const format = signatures.find(({ matches }) => matches(file))?.format
  if (!format || markup.test(file.toString('latin1'))) throw notAPicture()
  // `failOn: 'truncated'`: a file cut short is refused, not stored with a grey lower half.
  const input = sharp(file, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'truncated', pages: 1 })
  let width: number
  let height: number
  try {
    const metadata = await input.metadata()
    if (metadata.format !== format) throw notAPicture()
    if (metadata.width * metadata.height > AVATAR_MAX_PIXELS) throw tooLarge()
    // Orientations 5–8 turn the picture a quarter: width and height swap once it is applied.
    const turned = (metadata.orientation ?? 1) >= 5
    ;[width, height] = turned ? [metadata.height, metadata.width] : [metadata.width, metadata.height]
  } catch (error) {
    throw refusal(error)
  }
  const square = squareOf(crop, width, height)
  const oriented = input.rotate().extract(square)
  try {
    const [large, small] = await Promise.all(
      AVATAR_SIZES.map((size) =>
        oriented.clone().resize(size, size, { fit: 'fill' }).webp({ quality: 82, effort: 4 }).toBuffer(),
      ),
    )
    if (!large || !small) throw unreadable()
    return { hash: createHash('sha256').update(large).digest('hex').slice(0, 20), large, small }
  } catch (error) {
    throw refusal(error)
  }
}

const tooLarge = () =>
  new ApiError('image_too_large', `The picture has more than ${AVATAR_MAX_PIXELS / 1_000_000} megapixels.`)

/** sharp's failures as the client's: the pixel limit, or a file that does not decode. */
function refusal(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof Error && /pixel limit/i.test(error.message)) return tooLarge()
  return unreadable()
}

/** The square to cut: the one asked for, kept inside the picture; the middle one without. */
function squareOf(crop: AvatarCrop, width: number, height: number) {
  const side = Math.min(width, height)
  if (crop.size === undefined || crop.left === undefined || crop.top === undefined) {
    return { left: Math.floor((width - side) / 2), top: Math.floor((height - side) / 2), width: side, height: side }
  }
  const size = Math.min(crop.size, side)
  const left = Math.min(crop.left, width - size)
  const top = Math.min(crop.top, height - size)
  return { left, top, width: size, height: size }
}

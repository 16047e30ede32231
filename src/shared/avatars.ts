import { z } from 'zod/mini'

/**
 * Profile pictures (docs/product.md §9): uploaded on /account, re-encoded by the server into two
 * square WebP images and served at content-addressed URLs.
 */

/** The largest file accepted, in bytes (5 MB). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024
/** The most pixels a picture may have before it is decoded (a defence against decompression bombs). */
export const AVATAR_MAX_PIXELS = 40_000_000
/** The sizes the server makes, in pixels: 64 for avatars up to 32 px (twice for sharp screens), 256 above. */
export const AVATAR_SIZES = [256, 64] as const
export type AvatarSize = (typeof AVATAR_SIZES)[number]
/** The types a picture may have, as a file picker's `accept` lists them. */
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const

/** Where a picture is sent (PUT, the file as the body) and removed (DELETE). */
export const AVATAR_UPLOAD_PATH = '/api/me/avatar'

/** The URL of an account's picture at one size: the hash names this picture and no other. */
export const avatarUrl = (userId: string, hash: string, size: AvatarSize) =>
  `/api/avatars/${userId}/${hash}-${size}.webp`

/** The hash of a picture: the first 20 hex digits of the SHA-256 of its 256 px WebP. */
const hash = '[0-9a-f]{20}'
/** The file part of a picture's URL: `{hash}-{size}.webp`. */
export const AVATAR_FILE_PATTERN = new RegExp(`^(${hash})-(${AVATAR_SIZES.join('|')})\\.webp$`)
const uploadedPattern = new RegExp(`^/api/avatars/([\\w-]+)/(${hash})-256\\.webp$`)

/**
 * What to load for an avatar shown at `px` CSS pixels: an uploaded picture's 64 px image where it
 * is sharp enough (up to 32 px, or at 1× density), its 256 px one where not; any other URL (an
 * HTTPS link set before uploads existed) as it is.
 */
export function avatarSources(image: string | null | undefined, px: number): { src: string; srcSet?: string } | null {
  if (!image) return null
  const uploaded = uploadedPattern.exec(image)
  if (!uploaded) return { src: image }
  const [, userId = '', hash = ''] = uploaded
  const small = avatarUrl(userId, hash, 64)
  if (px * 2 <= 64) return { src: small }
  return { src: small, srcSet: `${small} 1x, ${image} 2x` }
}

/**
 * The square to keep, in pixels of the picture as it is shown (its orientation applied); without it
 * the largest square in the middle. Marked pure: the client imports this file for `avatarSources`
 * (every signed-in page), and the bundler would keep a module-level call it cannot prove free of
 * side effects, and with it all of zod.
 */
export const avatarCropSchema = /* @__PURE__ */ z.object({
  left: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100_000))),
  top: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100_000))),
  size: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000))),
}).check(
  z.refine(({ left, top, size }) => [left, top, size].every((value) => value === undefined) || [left, top, size].every((value) => value !== undefined), {
    message: 'Give left, top and size together, or none of them.',
    path: ['size'],
  }),
)
export type AvatarCrop = z.infer<typeof avatarCropSchema>

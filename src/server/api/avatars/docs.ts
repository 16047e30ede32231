import { z } from 'zod/mini'
import { AVATAR_MAX_PIXELS, AVATAR_TYPES } from '@/shared/avatars'
import { describe, file, json } from '@/server/openapi/describe'
import { answer } from '@/server/openapi/schemas'

const tags = ['Account']

const avatarSchema = answer<{ image: string }>('Avatar', 'A profile picture just uploaded.')(
  z.object({ image: z.string().check(z.meta({ description: 'Its URL at 256 px, now the account’s `image`.' })) }),
)

export const describeUpload = describe({
  operationId: 'uploadMyAvatar',
  summary: 'Upload your profile picture',
  description: `The file is the body (JPEG, PNG, WebP, AVIF or GIF, at most 5 MB, at most ${AVATAR_MAX_PIXELS / 1_000_000} megapixels). \`left\`, \`top\` and \`size\` give the square to keep, in pixels of the picture with its orientation applied; without them the middle square is kept. The server decodes it and stores it encoded again as WebP at 256 and 64 px, without metadata; it replaces the picture before (whose URLs answer 404 from then on). 415 for a file of another type (SVG, HTML, one with markup in it), 400 \`invalid_image\` for one that does not decode (truncated), 400 \`image_too_large\` above the pixel limit, 413 above 5 MB, 429 after 10 uploads in 10 minutes.`,
  tags,
  access: 'user',
  requestBody: { ...file(AVATAR_TYPES, 'The picture.'), required: true },
  responses: { 200: json(avatarSchema, 'The URL of the new picture (256 px; `-64.webp` for 64 px).') },
  errors: [413, 415, 429, 503],
})

export const describeRemove = describe({
  operationId: 'removeMyAvatar',
  summary: 'Remove your profile picture',
  description: 'The initials are shown again; the picture’s URLs answer 404.',
  tags,
  access: 'user',
  responses: { 204: { description: 'Removed (or there was none).' } },
  errors: [503],
})

export const describeRead = describe({
  operationId: 'getAvatar',
  summary: 'A profile picture',
  description:
    'Public (no cookie needed), at the URL an account’s `image` gives. The URL names one picture: `Cache-Control: public, max-age=31536000, immutable`. 404 once the picture is replaced or removed.',
  tags,
  access: 'public',
  responses: { 200: file(['image/webp'], 'The picture, square, 256 or 64 px.') },
  errors: [404, 503],
})

import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import { AVATAR_FILE_PATTERN, AVATAR_MAX_BYTES, type AvatarSize, avatarCropSchema } from '@/shared/avatars'
import { USER_ID_PATTERN } from '@/shared/people'
import type { Auth } from '@/server/auth/auth'
import { refreshStoredSessions } from '@/server/auth/revocations'
import type { Db } from '@/server/db/client'
import { pathParams, queryParams, readBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError, defaultMessages } from '@/server/http/errors'
import { requireUser, signedInUser } from '@/server/auth/session'
import { describeRead, describeRemove, describeUpload } from './docs'
import { processAvatar } from './images'
import { readAvatar, removeAvatar, saveAvatar } from './store'

/** Uploads per account: a few tries at the crop, not a stream of files. */
export const AVATAR_UPLOADS = { points: 10, seconds: 600 }

/** What an upload may say it is: a picture, or bytes of an unnamed type (the content decides). */
const uploadType = /^(image\/[\w.+-]+|application\/octet-stream)\s*(;|$)/i

/**
 * `/api/me/avatar` (behind `readSession`): the signed-in person's picture, uploaded (PUT, the file
 * as the body, the square to keep in the query) or removed (DELETE). `limit` counts uploads per
 * account.
 */
export function avatarUploadRoutes({ db, auth, limit }: { db: Db; auth: Auth; limit: MiddlewareHandler<AppEnv> }) {
  // After a change of the account, better-auth's copies of it kept with the sessions (in Redis)
  // are written again, as its own update-user does.
  const accountChanged = (userId: string) => refreshStoredSessions(auth, db, userId)
  return new Hono<AppEnv>()
    .put('/', describeUpload, requireUser, limit, queryParams(avatarCropSchema), async (c) => {
      if (!uploadType.test(c.req.header('content-type') ?? '')) {
        throw new ApiError('unsupported_media_type', 'Send the picture as the body, with its image/* type.')
      }
      const file = Buffer.from(await readBody(c.req.raw, AVATAR_MAX_BYTES))
      if (file.length === 0) throw new ApiError('invalid_image', defaultMessages.invalid_image)
      const picture = await processAvatar(file, c.req.valid('query'))
      const { id } = signedInUser(c)
      const image = await saveAvatar(db, id, picture)
      await accountChanged(id)
      return c.json({ image })
    })
    .delete('/', describeRemove, requireUser, async (c) => {
      const { id } = signedInUser(c)
      await removeAvatar(db, id)
      await accountChanged(id)
      return c.body(null, 204)
    })
}

const pictureNotFound = () => new ApiError('not_found', 'No such picture.')

/** `/api/avatars/{userId}/{hash}-{size}.webp`: public, and the same bytes for ever at one URL. */
export function avatarRoutes(db: Db) {
  const params = pathParams(
    z.object({ userId: z.string().check(z.regex(USER_ID_PATTERN)), file: z.string().check(z.regex(AVATAR_FILE_PATTERN)) }),
    pictureNotFound,
  )
  return new Hono<AppEnv>().get('/:userId/:file', describeRead, params, async (c) => {
    const { userId, file } = c.req.valid('param')
    const [, hash = '', size] = AVATAR_FILE_PATTERN.exec(file) ?? []
    const bytes = await readAvatar(db, userId, hash, Number(size) as AvatarSize)
    if (!bytes) throw pictureNotFound()
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'image/webp',
      // The URL names these bytes only (a new picture has a new hash): kept for a year by anyone.
      'Cache-Control': 'public, max-age=31536000, immutable',
    })
  })
}

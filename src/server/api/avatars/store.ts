import { and, eq } from 'drizzle-orm'
import { type AvatarSize, avatarUrl } from '@/shared/avatars'
import type { Db } from '@/server/db/client'
import { avatar, user } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import type { ProcessedAvatar } from './images'

/** Their other open screens show the new picture (the last statement of the change). */
const announcePicture = (tx: Db, userId: string) =>
  publishEvent(tx, { type: 'account', userId, data: { reason: 'profile' } })

/**
 * Keeps `picture` as the account's one picture (the one before it is replaced: its URLs answer
 * 404 from now on) and points the account's `image` at it, in one transaction. Answers that URL.
 */
export async function saveAvatar(db: Db, userId: string, picture: ProcessedAvatar): Promise<string> {
  const image = avatarUrl(userId, picture.hash, 256)
  await db.transaction(async (tx) => {
    await tx
      .insert(avatar)
      .values({ userId, ...picture })
      .onConflictDoUpdate({
        target: avatar.userId,
        set: { hash: picture.hash, large: picture.large, small: picture.small, createdAt: new Date() },
      })
    await tx.update(user).set({ image }).where(eq(user.id, userId))
    await announcePicture(tx, userId)
  })
  return image
}

/** Removes the account's picture (an uploaded one or a link set before uploads): initials again. */
export async function removeAvatar(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(avatar).where(eq(avatar.userId, userId))
    await tx.update(user).set({ image: null }).where(eq(user.id, userId))
    await announcePicture(tx, userId)
  })
}

/** The WebP of the account's picture at `size`, if `hash` is the current picture's. */
export async function readAvatar(db: Db, userId: string, hash: string, size: AvatarSize): Promise<Buffer | undefined> {
  const column = size === 256 ? avatar.large : avatar.small
  const [found] = await db
    .select({ bytes: column })
    .from(avatar)
    .where(and(eq(avatar.userId, userId), eq(avatar.hash, hash)))
  return found?.bytes
}

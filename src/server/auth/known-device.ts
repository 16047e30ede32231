import { createHmac } from 'node:crypto'

/**
 * A browser that has signed in to an account before carries a "known device" cookie for it:
 * HttpOnly, as long-lived as a session, holding for each account (up to `MAX_ACCOUNTS`, the most
 * recent first) a MAC of its email under the auth secret — unforgeable, and saying nothing about
 * the email to whoever reads it. The per-email lock-out of password sign-in, which anyone can
 * trigger with wrong passwords for someone else's email, does not apply on the owner's own
 * browser (OWASP, "Authentication Cheat Sheet": lock-out abuse). The per-address rate limits
 * still do.
 */
export const KNOWN_DEVICE_COOKIE = 'known_device'
const MAX_ACCOUNTS = 5
const TAG_LENGTH = 22

export function knownDevices(secret: string) {
  const tagOf = (email: string) =>
    createHmac('sha256', secret).update(`known-device:${email.trim().toLowerCase()}`).digest('base64url').slice(0, TAG_LENGTH)
  const tagsIn = (cookie: string | null | undefined) =>
    (cookie ?? '').split('.').filter((tag) => tag.length === TAG_LENGTH).slice(0, MAX_ACCOUNTS)
  return {
    /** Whether the cookie says this browser has signed in to the account of `email`. */
    knows: (cookie: string | null | undefined, email: string) => tagsIn(cookie).includes(tagOf(email)),
    /** The cookie's new value once the account of `email` has signed in on this browser. */
    remember: (cookie: string | null | undefined, email: string) => {
      const tag = tagOf(email)
      return [tag, ...tagsIn(cookie).filter((known) => known !== tag)].slice(0, MAX_ACCOUNTS).join('.')
    },
  }
}

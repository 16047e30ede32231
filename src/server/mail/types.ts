/** Every email the app sends. The kind is what the per-address throttle counts. */
export const mailKinds = [
  'verify-email',
  'sign-in-code',
  'reset-password',
  'change-email',
  'account-exists',
  'sign-in-methods-changed',
  'account-access-changed',
  'practice-reminder',
] as const
export type MailKind = (typeof mailKinds)[number]

export const mailLocales = ['en', 'ru'] as const
export type MailLocale = (typeof mailLocales)[number]

/** A rendered email, ready for `Mailer.send`. */
export interface MailMessage {
  kind: MailKind
  /** One recipient address. */
  to: string
  subject: string
  text: string
  html: string
  /**
   * The link or the code the email carries. Only the outbox (no SMTP) writes them to the log and
   * to disk, so that the embedded default is usable; with SMTP they are never logged.
   */
  link?: string
  code?: string
  /** Headers of its own, e.g. a reminder's `List-Unsubscribe` (RFC 8058). */
  headers?: Record<string, string>
}

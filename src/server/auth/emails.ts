import type { BetterAuthOptions } from 'better-auth'
import { APIError } from 'better-auth/api'
import type { emailOTP } from 'better-auth/plugins'
import { emailFormSchema } from '@/shared/auth-schemas'
import type { Config } from '@/server/config'
import { type MailKind, type MailThrottle, type Mailer, composeMail, resolveMailLocale } from '@/server/mail/index'
import {
  RESET_PASSWORD_EXPIRES_SECONDS,
  SIGN_IN_CODE_EXPIRES_SECONDS,
  VERIFY_EMAIL_EXPIRES_SECONDS,
} from './lifetimes'

type EmailAndPassword = NonNullable<BetterAuthOptions['emailAndPassword']>
type EmailVerification = NonNullable<BetterAuthOptions['emailVerification']>
type EmailOtpOptions = Parameters<typeof emailOTP>[0]

/** The interface language of the request (the client sends Accept-Language), for emails. */
export function localeOf(request: Request | undefined) {
  const header = request?.headers.get('accept-language') ?? ''
  return resolveMailLocale(header.split(',')[0]?.trim() ?? 'en')
}

const minutes = (seconds: number) => Math.ceil(seconds / 60)

/**
 * The endpoints that email a link or a code on request, and the kind of email each sends. A
 * request within the throttle window of the last one to the same address is told to wait (429,
 * Retry-After) instead of being answered as if an email had gone: for every address, with an
 * account or not, so that the answer tells nothing about which addresses have one.
 */
const emailRequests: Record<string, (body: Record<string, unknown>) => MailKind | undefined> = {
  '/email-otp/send-verification-otp': (body) => (body.type === 'sign-in' ? 'sign-in-code' : undefined),
  '/request-password-reset': () => 'reset-password',
  '/send-verification-email': () => 'verify-email',
}

/**
 * better-auth's email tokens are JWTs; one that moves an account to a new address carries
 * `updateTo`. Read without checking the signature: it only picks the email's wording, and
 * `/verify-email` checks the token when the link is opened.
 */
function isEmailChangeToken(token: string): boolean {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
    return typeof payload === 'object' && payload !== null && 'updateTo' in payload && Boolean(payload.updateTo)
  } catch {
    return false
  }
}

/** What better-auth emails, in the language of the request that caused it, through the mailer. */
export function authEmails({ config, mailer, mailThrottle }: {
  config: Config
  mailer: Mailer
  /** The mailer's throttle: requests for an email are told to wait while it holds their slot. */
  mailThrottle: MailThrottle
}) {
  /** Requests whose email already holds its throttle slot (claimed by `claimThrottleSlot`). */
  const claimed = new WeakSet<Request>()
  const sendMail = (message: Parameters<Mailer['send']>[0], request: Request | undefined) =>
    mailer.send(message, { claimed: request !== undefined && claimed.has(request) })
  const confirmLink = (type: string, token: string) =>
    `${config.appUrl}/confirm?${new URLSearchParams({ type, token }).toString()}`
  /** An email with a link, in the language of the request that caused it. */
  const sendLink = (
    kind: 'verify-email' | 'reset-password' | 'change-email',
    to: string,
    link: string,
    expiresInSeconds: number,
    request: Request | undefined,
  ) =>
    sendMail(
      composeMail(to, {
        kind,
        appName: config.appName,
        locale: localeOf(request),
        link,
        expiresInMinutes: minutes(expiresInSeconds),
        ...(kind === 'change-email' ? { newEmail: to } : {}),
      }),
      request,
    )

  const sendResetPassword: NonNullable<EmailAndPassword['sendResetPassword']> = ({ user, token }, request) =>
    sendLink('reset-password', user.email, confirmLink('recovery', token), RESET_PASSWORD_EXPIRES_SECONDS, request)

  // Only the mailbox learns that the address is taken; the answer is `customSyntheticUser`'s (auth.ts).
  const sendAccountExists: NonNullable<EmailAndPassword['onExistingUserSignUp']> = ({ user }, request) =>
    mailer.send(
      composeMail(user.email, {
        kind: 'account-exists',
        appName: config.appName,
        locale: localeOf(request),
        link: `${config.appUrl}/login`,
      }),
    )

  // The same token confirms a new account and a new address; its claims tell them apart.
  const sendVerificationEmail: NonNullable<EmailVerification['sendVerificationEmail']> = ({ user, token }, request) =>
    isEmailChangeToken(token)
      ? sendLink('change-email', user.email, confirmLink('email_change', token), VERIFY_EMAIL_EXPIRES_SECONDS, request)
      : sendLink('verify-email', user.email, confirmLink('signup', token), VERIFY_EMAIL_EXPIRES_SECONDS, request)

  const sendSignInCode: EmailOtpOptions['sendVerificationOTP'] = async ({ email, otp, type }, ctx) => {
    if (type !== 'sign-in') return
    await sendMail(
      composeMail(email, {
        kind: 'sign-in-code',
        appName: config.appName,
        locale: localeOf(ctx?.request),
        code: otp,
        expiresInMinutes: minutes(SIGN_IN_CODE_EXPIRES_SECONDS),
      }),
      ctx?.request,
    )
  }

  /**
   * Before an endpoint that emails on request runs (`emailRequests`): 429 while the address's
   * slot is held, else the slot is claimed for this request's email.
   */
  async function claimThrottleSlot(path: string, body: Record<string, unknown>, request: Request | undefined) {
    const emailKind = emailRequests[path]?.(body)
    // Only for an address an email could go to: better-auth refuses the others (400).
    if (!emailKind || !emailFormSchema.safeParse(body).success || typeof body.email !== 'string' || !request) return
    if (!(await mailThrottle.allow(emailKind, body.email))) {
      const seconds = Math.max(1, Math.ceil((await mailThrottle.retryAfterMs(emailKind, body.email)) / 1000))
      throw new APIError(
        'TOO_MANY_REQUESTS',
        {
          code: 'EMAIL_RECENTLY_SENT',
          message: `An email was sent to this address moments ago. Wait ${seconds} s before asking again.`,
        },
        { 'Retry-After': String(seconds) },
      )
    }
    claimed.add(request)
  }

  return { sendResetPassword, sendAccountExists, sendVerificationEmail, sendSignInCode, claimThrottleSlot }
}

import nodemailer from 'nodemailer'
import type { Logger } from 'pino'
import { type Config, redactUrl } from '@/server/config'
import { createOutboxWriter, outboxDir } from './outbox'
import { createMemoryMailThrottle, type MailThrottle } from './throttle'
import { type MailMessage, mailKinds } from './types'

export interface Mailer {
  /** `smtp` with SMTP_URL; `outbox` (log + files under DATA_DIR/outbox) without it. */
  readonly mode: 'smtp' | 'outbox'
  /**
   * Delivers the email, or does nothing (logged at debug) when one of the same kind went to the
   * same address within the throttle window — unless the caller has claimed the throttle's slot
   * itself (`claimed`, to tell the requester to wait instead). Rejects with a `MailDeliveryError`
   * when the SMTP server cannot be reached or refuses the message, within the SMTP timeouts; the
   * caller decides what the user sees.
   */
  send(message: MailMessage, options?: { claimed?: boolean }): Promise<void>
  /** Closes the SMTP connections. Safe to call twice. */
  close(): Promise<void>
}

interface SmtpTimeouts {
  /** To open the TCP (or TLS) connection. */
  connectionMs: number
  /** From connecting to the server's greeting. */
  greetingMs: number
  /** Of inactivity once connected, e.g. a server that stops answering mid-message. */
  socketMs: number
}

const defaultSmtpTimeouts: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
}

export interface MailerOptions {
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>
  logger: Logger
  /** Default: in memory, one email of a kind per address per 60 s. */
  throttle?: MailThrottle
  /** The clock of the outbox's timestamps (default `Date.now`). */
  now?: () => number
  smtpTimeouts?: Partial<SmtpTimeouts>
}

export class MailDeliveryError extends Error {
  /** Nodemailer's error code, e.g. `ECONNECTION`, `ETIMEDOUT`, `EAUTH`, `EENVELOPE`. */
  readonly code: string | undefined

  constructor(message: string, options: { cause: unknown; code: string | undefined }) {
    super(message, { cause: options.cause })
    this.name = 'MailDeliveryError'
    this.code = options.code
  }
}

const singleAddress = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+$/

interface SmtpError {
  message?: unknown
  code?: unknown
  responseCode?: unknown
}

export function createMailer(options: MailerOptions): Mailer {
  const { config } = options
  const log = options.logger.child({ component: 'mail' })
  const throttle = options.throttle ?? createMemoryMailThrottle()
  let closed = false

  let deliver: (message: MailMessage) => Promise<void>
  let closeTransport: () => void = () => {}

  if (config.smtpUrl) {
    const timeouts = { ...defaultSmtpTimeouts, ...options.smtpTimeouts }
    const transport = nodemailer.createTransport(
      {
        // The URL may carry nodemailer options in its query, e.g. `?tls.rejectUnauthorized=false`.
        url: config.smtpUrl,
        // A few connections reused across emails instead of a TCP + TLS handshake per email.
        pool: true,
        maxConnections: 3,
        maxMessages: 100,
        connectionTimeout: timeouts.connectionMs,
        greetingTimeout: timeouts.greetingMs,
        socketTimeout: timeouts.socketMs,
        dnsTimeout: timeouts.connectionMs,
        // Messages are built from our own templates: never let content read files or URLs.
        disableFileAccess: true,
        disableUrlAccess: true,
      },
      { from: config.mailFrom },
    )
    closeTransport = () => transport.close()
    // Host and port only: error messages travel further than the log and must not carry the password.
    const smtpHost = new URL(config.smtpUrl).host
    log.info(
      { smtp: redactUrl(config.smtpUrl), from: config.mailFrom },
      'emails go out through SMTP',
    )

    deliver = async (message) => {
      try {
        const info = await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          // RFC 3834: tells auto-responders (vacation replies) not to answer.
          headers: { 'Auto-Submitted': 'auto-generated', ...message.headers },
        })
        // In production (SMTP) the link and the code are deliberately NOT logged: they sign the
        // reader in. Only the recipient and the kind are.
        log.info({ kind: message.kind, to: message.to, messageId: info.messageId }, 'email sent')
      } catch (cause) {
        const error = (cause ?? {}) as SmtpError
        const code = typeof error.code === 'string' ? error.code : undefined
        const reason = typeof error.message === 'string' ? error.message : String(cause)
        log.warn(
          {
            kind: message.kind,
            to: message.to,
            error: { code, message: reason, responseCode: error.responseCode },
          },
          'email delivery failed',
        )
        const text = `Could not send the email through SMTP (${smtpHost}): ${reason}`
        throw new MailDeliveryError(text, { cause, code })
      }
    }
  } else {
    const writeToOutbox = createOutboxWriter(config.dataDir, options.now)
    log.info(
      { outbox: outboxDir(config.dataDir) },
      'SMTP_URL is not set: emails are written to the log and to the outbox, not sent',
    )

    deliver = async (message) => {
      const entry = await writeToOutbox({ ...message, from: config.mailFrom })
      // The documented development behaviour: with no SMTP the link or the code is logged so the
      // app is usable with nothing configured. With SMTP (production) they never are.
      log.info(
        {
          kind: entry.kind,
          to: entry.to,
          subject: entry.subject,
          ...(entry.link === undefined ? {} : { link: entry.link }),
          ...(entry.code === undefined ? {} : { code: entry.code }),
          outboxFile: `${entry.id}.json`,
        },
        'email kept in the outbox (no SMTP)',
      )
    }
  }

  return {
    mode: config.smtpUrl ? 'smtp' : 'outbox',

    async send(message, { claimed = false } = {}) {
      if (closed) throw new Error('The mailer is closed')
      if (!mailKinds.includes(message.kind)) {
        throw new TypeError(`Unknown email kind: ${String(message.kind)}`)
      }
      const to = message.to.trim()
      // One bare address: nodemailer would otherwise read "a@x, b@y" or "Name <a@x>" as a list.
      if (!singleAddress.test(to)) throw new TypeError('The recipient must be one email address')

      if (!claimed && !(await throttle.allow(message.kind, to))) {
        log.debug(
          { kind: message.kind, to },
          'email not sent: one of this kind went to this address within the throttle window',
        )
        return
      }
      try {
        await deliver({ ...message, to })
      } catch (error) {
        // The email did not go out: let the user ask again without waiting for the window.
        await throttle.release?.(message.kind, to).catch((releaseError: unknown) => {
          log.warn({ err: releaseError }, 'could not release the email throttle')
        })
        throw error
      }
    },

    close() {
      if (!closed) {
        closed = true
        closeTransport()
      }
      return Promise.resolve()
    },
  }
}

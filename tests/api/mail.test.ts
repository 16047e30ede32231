import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { redactPaths } from '@/server/logger'
import {
  composeMail,
  createMailer,
  createMemoryMailThrottle,
  createRedisMailThrottle,
  formatDuration,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
  type MailKind,
  mailKinds,
  type MailLocale,
  type MailTemplateInput,
  readOutbox,
  renderMail,
} from '@/server/mail/index'
import {
  closedPort,
  type ReceivedMail,
  startSilentServer,
  startSmtpServer,
  type TestSmtpServer,
} from '../helpers/smtp'

const mailFrom = 'Lingua Test <no-reply@lingua.test>'
const appUrl = 'https://lingua.test'
const confirmLink = `${appUrl}/confirm?type=verify-email&token=tok_123`

interface LogLine {
  level: number
  msg: string
  [key: string]: unknown
}

/** A logger like the server's (same redaction) whose lines the test can read. */
function captureLogs() {
  const lines: LogLine[] = []
  const logger = pino(
    { level: 'debug', base: undefined, redact: { paths: redactPaths, censor: '[redacted]' } },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  )
  return { logger, lines, text: () => lines.map((line) => JSON.stringify(line)).join('\n') }
}

const mailers: Mailer[] = []
const tempDirs: string[] = []

function mailer(
  options: Partial<Omit<MailerOptions, 'config'>> & { smtpUrl?: string; dataDir?: string },
) {
  const logs = captureLogs()
  const created = createMailer({
    config: { smtpUrl: options.smtpUrl, mailFrom, dataDir: options.dataDir ?? '/nonexistent' },
    logger: options.logger ?? logs.logger,
    ...(options.throttle ? { throttle: options.throttle } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.smtpTimeouts ? { smtpTimeouts: options.smtpTimeouts } : {}),
  })
  mailers.push(created)
  return { mailer: created, logs }
}

async function tempDataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lingua-mail-'))
  tempDirs.push(dir)
  return dir
}

afterEach(async () => {
  await Promise.all(mailers.splice(0).map((m) => m.close()))
})
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

function verifyEmail(to: string, overrides: Partial<MailTemplateInput> = {}) {
  return composeMail(to, {
    kind: 'verify-email',
    appName: 'Lingua',
    locale: 'en',
    link: confirmLink,
    expiresInMinutes: 60,
    ...overrides,
  } as MailTemplateInput)
}

/** The link of a kind's email in these tests; a notice links to a page, the others carry a token. */
const linkOfKind = (kind: MailKind) =>
  kind === 'account-exists'
    ? `${appUrl}/login`
    : kind === 'sign-in-methods-changed' || kind === 'account-access-changed'
      ? `${appUrl}/account`
      : kind === 'practice-reminder'
        ? `${appUrl}/practice`
        : `${appUrl}/confirm?type=${kind}&token=t`

function mailOfKind(kind: MailKind, to: string, locale: MailLocale = 'en') {
  const appName = 'Lingua'
  switch (kind) {
    case 'sign-in-code':
      return composeMail(to, { kind, appName, locale, code: '123456', expiresInMinutes: 5 })
    case 'account-exists':
      return composeMail(to, { kind, appName, locale, link: linkOfKind(kind) })
    case 'sign-in-methods-changed':
      return composeMail(to, { kind, appName, locale, link: linkOfKind(kind), change: 'passkey-added', name: 'MacBook' })
    case 'account-access-changed':
      return composeMail(to, { kind, appName, locale, link: linkOfKind(kind), change: 'disabled' })
    case 'practice-reminder':
      return composeMail(to, {
        kind,
        appName,
        locale,
        link: linkOfKind(kind),
        count: 7,
        stopLink: `${appUrl}/reminders/unsubscribe?token=t`,
        oneClickUrl: `${appUrl}/api/reminders/unsubscribe?token=t`,
      })
    default:
      return composeMail(to, { kind, appName, locale, link: linkOfKind(kind), expiresInMinutes: 60 })
  }
}

describe('email templates', () => {
  it.each([
    [1, 'en', '1 minute'],
    [5, 'en', '5 minutes'],
    [60, 'en', '60 minutes'],
    [120, 'en', '2 hours'],
    [1440, 'en', '24 hours'],
    [2880, 'en', '2 days'],
    [1, 'ru', '1 минуту'],
    [2, 'ru', '2 минуты'],
    [5, 'ru', '5 минут'],
    [11, 'ru', '11 минут'],
    [21, 'ru', '21 минуту'],
    [22, 'ru', '22 минуты'],
    [60, 'ru', '60 минут'],
    [180, 'ru', '3 часа'],
    [300, 'ru', '5 часов'],
    [1260, 'ru', '21 час'],
    [4320, 'ru', '3 дня'],
  ] as const)('writes %i minutes in %s as "%s"', (minutes, locale, expected) => {
    expect(formatDuration(minutes, locale)).toBe(expected)
  })

  it('refuses an expiry that is not a positive whole number of minutes', () => {
    expect(() => formatDuration(0, 'en')).toThrow(RangeError)
    expect(() => formatDuration(1.5, 'en')).toThrow(RangeError)
  })

  it.each(
    mailKinds.flatMap((kind) => (['en', 'ru'] as const).map((locale) => [kind, locale] as const)),
  )(
    '%s in %s has the app name, the link or code, the expiry if any, and an accessible HTML version',
    (kind, locale) => {
      const message = mailOfKind(kind, 'a@example.com', locale)
      const secret = kind === 'sign-in-code' ? '123456' : linkOfKind(kind)
      const expiry =
        kind === 'account-exists' || kind === 'sign-in-methods-changed' || kind === 'account-access-changed' || kind === 'practice-reminder'
          ? // A notice links to a page of the app, which never expires: the email says nothing about it.
            undefined
          : kind === 'sign-in-code'
            ? { en: 'This code expires in 5 minutes.', ru: 'Код перестанет действовать через 5 минут.' }
            : { en: 'This link expires in 60 minutes.', ru: 'Ссылка перестанет действовать через 60 минут.' }

      // The reminder's subject is the spec's own words ("Time to practise: {n} cards are waiting").
      if (kind !== 'practice-reminder') expect(message.subject).toContain('Lingua')
      expect(message.text).toContain('Lingua')
      expect(message.text).toContain(secret)
      if (expiry) {
        expect(message.text).toContain(expiry[locale])
        expect(message.html).toContain(expiry[locale])
      } else {
        expect(message.text).not.toMatch(/expires|перестанет действовать/)
      }
      expect(message.html).toContain(`<html lang="${locale}"`)
      if (kind === 'sign-in-code') {
        expect(message.code).toBe('123456')
        expect(message.html).toContain('>123456<')
      } else {
        const escaped = secret.replaceAll('&', '&amp;')
        expect(message.link).toBe(secret)
        // A real link, and the URL also shown as text for clients that hide the button.
        expect(message.html.split(`<a href="${escaped}"`)).toHaveLength(3)
        expect(message.html).toContain(`>${escaped}</a>`)
      }
      // The two languages really differ.
      expect(/[а-яё]/i.test(message.text)).toBe(locale === 'ru')
    },
  )

  it('escapes every interpolated value in the HTML version', () => {
    const appName = 'Evil<script>alert("x")</script>&Co'
    const link = `${appUrl}/confirm?token=a&b="><script>alert(1)</script>`
    for (const input of [
      { kind: 'verify-email', appName, locale: 'en', link, expiresInMinutes: 60 },
      {
        kind: 'change-email',
        appName,
        locale: 'ru',
        link,
        newEmail: '"<b>x</b>"@example.com',
        expiresInMinutes: 60,
      },
      { kind: 'sign-in-code', appName, locale: 'en', code: '<i>1</i>&"', expiresInMinutes: 5 },
    ] as const) {
      const { html, text } = renderMail(input)
      expect(html).not.toMatch(/<script|<b>|<i>|"><script|&Co|&b=/)
      expect(html).toContain('Evil&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;Co')
      if (input.kind !== 'sign-in-code') {
        expect(html).toContain('?token=a&amp;b=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
      } else {
        expect(html).toContain('&lt;i&gt;1&lt;/i&gt;&amp;&quot;')
      }
      // The plain-text version shows the values as they are.
      expect(text).toContain(appName)
    }
  })

  it('refuses a link that is not http(s)', () => {
    expect(() => verifyEmail('a@example.com', { link: 'javascript:alert(1)' })).toThrow(/http/)
    expect(() => verifyEmail('a@example.com', { link: '/confirm?token=x' })).toThrow(/absolute URL/)
  })

  it('names the new address in the email-change confirmation', () => {
    const { text } = renderMail({
      kind: 'change-email',
      appName: 'Lingua',
      locale: 'en',
      link: confirmLink,
      newEmail: 'new@example.com',
      expiresInMinutes: 60,
    })
    expect(text).toContain('to new@example.com')
  })
})

describe('delivery through SMTP', () => {
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startSmtpServer()
    return () => smtp.stop()
  })
  const to = (address: string) => (mail: ReceivedMail) => mail.envelope.to.includes(address)

  it('delivers a confirmation email from MAIL_FROM with the link and the expiry, and does not log the link', async () => {
    const { mailer: m, logs } = mailer({ smtpUrl: smtp.url })
    expect(m.mode).toBe('smtp')
    await m.send(verifyEmail('reader@example.com'))

    const mail = await smtp.waitFor(to('reader@example.com'))
    expect(mail.envelope.from).toBe('no-reply@lingua.test')
    expect(mail.from).toBe(mailFrom)
    expect(mail.to).toBe('reader@example.com')
    expect(mail.subject).toBe('Confirm your email address for Lingua')
    expect(mail.text).toContain(confirmLink)
    expect(mail.text).toContain('This link expires in 60 minutes.')
    expect(mail.html).toContain(`href="${confirmLink.replaceAll('&', '&amp;')}"`)
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated')

    const sent = logs.lines.find((line) => line.msg === 'email sent')
    expect(sent).toMatchObject({ level: 30, kind: 'verify-email', to: 'reader@example.com' })
    // Production rule: with SMTP the link (it signs the reader in) never reaches the log.
    expect(logs.text()).not.toContain('tok_123')
  })

  it('delivers the Russian email in Russian with the right plural', async () => {
    const { mailer: m } = mailer({ smtpUrl: smtp.url })
    await m.send(
      composeMail('ru-code@example.com', {
        kind: 'sign-in-code',
        appName: 'Лингва',
        locale: 'ru',
        code: '654321',
        expiresInMinutes: 21,
      }),
    )
    await m.send(
      composeMail('ru-link@example.com', {
        kind: 'reset-password',
        appName: 'Лингва',
        locale: 'ru',
        link: `${appUrl}/confirm?type=reset-password&token=r`,
        expiresInMinutes: 2,
      }),
    )

    const code = await smtp.waitFor(to('ru-code@example.com'))
    expect(code.subject).toBe('Код для входа в Лингва')
    expect(code.text).toContain('654321')
    expect(code.text).toContain('Код перестанет действовать через 21 минуту.')
    expect(code.html).toContain('<html lang="ru"')

    const link = await smtp.waitFor(to('ru-link@example.com'))
    expect(link.subject).toBe('Сброс пароля в Лингва')
    expect(link.text).toContain('Ссылка перестанет действовать через 2 минуты.')
  })

  it('logs in when SMTP_URL has credentials', async () => {
    const secured = await startSmtpServer({ auth: { user: 'mailer', pass: 'p@ss word' } })
    try {
      const { mailer: m } = mailer({ smtpUrl: secured.url })
      await m.send(verifyEmail('auth@example.com'))
      const mail = await secured.waitFor(to('auth@example.com'))
      expect(mail.user).toBe('mailer')

      const wrongUrl = secured.url.replace(encodeURIComponent('p@ss word'), 'wrong')
      const { mailer: wrong, logs } = mailer({ smtpUrl: wrongUrl })
      const failure = await wrong
        .send(verifyEmail('auth2@example.com'))
        .catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(MailDeliveryError)
      expect((failure as MailDeliveryError).code).toBe('EAUTH')
      expect(logs.text()).not.toContain('wrong@')
    } finally {
      await Promise.all(mailers.splice(0).map((m) => m.close()))
      await secured.stop()
    }
  })

  it('sends at most one email of a kind per address per 60 s', async () => {
    let now = 1_000_000
    const throttle = createMemoryMailThrottle({ now: () => now })
    const { mailer: m, logs } = mailer({ smtpUrl: smtp.url, throttle })
    const delivered = (address: string, kind: MailKind) =>
      smtp.messages.filter(
        (mail) => mail.envelope.to.includes(address) && mail.text?.includes(`type=${kind}&`),
      ).length

    await m.send(mailOfKind('verify-email', 'throttled@example.com'))
    await m.send(mailOfKind('verify-email', 'throttled@example.com'))
    // Same address in other letter case and with spaces: still the same address.
    await m.send(mailOfKind('verify-email', ' Throttled@Example.COM '))
    // `send` resolves once the server has accepted the message, so the counts are final here.
    expect(delivered('throttled@example.com', 'verify-email')).toBe(1)
    expect(logs.lines.filter((line) => line.msg.startsWith('email not sent'))).toHaveLength(2)
    expect(logs.lines.find((line) => line.msg.startsWith('email not sent'))).toMatchObject({
      level: 20,
      kind: 'verify-email',
      to: 'throttled@example.com',
    })

    // Another kind to the same address, the same kind to another address: both go.
    await m.send(mailOfKind('reset-password', 'throttled@example.com'))
    await m.send(mailOfKind('verify-email', 'other@example.com'))
    expect(delivered('throttled@example.com', 'reset-password')).toBe(1)
    expect(delivered('other@example.com', 'verify-email')).toBe(1)

    now += 59_999
    await m.send(mailOfKind('verify-email', 'throttled@example.com'))
    expect(delivered('throttled@example.com', 'verify-email')).toBe(1)

    now += 1
    await m.send(mailOfKind('verify-email', 'throttled@example.com'))
    expect(delivered('throttled@example.com', 'verify-email')).toBe(2)
  })

  it('takes the window from the throttle options', async () => {
    let now = 0
    const { mailer: m } = mailer({
      smtpUrl: smtp.url,
      throttle: createMemoryMailThrottle({ windowMs: 5_000, now: () => now }),
    })
    const count = () =>
      smtp.messages.filter((mail) => mail.envelope.to.includes('window@example.com')).length
    await m.send(mailOfKind('sign-in-code', 'window@example.com'))
    now = 4_999
    await m.send(mailOfKind('sign-in-code', 'window@example.com'))
    expect(count()).toBe(1)
    now = 5_000
    await m.send(mailOfKind('sign-in-code', 'window@example.com'))
    expect(count()).toBe(2)
  })
})

describe.runIf(process.env.TEST_REDIS_URL)('the throttle in Redis, shared by instances', () => {
  // Two connections, as two server processes would have.
  let redis: Redis
  let other: Redis
  const keyPrefix = `lingua-test-${randomUUID()}:mail-throttle:`
  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL ?? '')
    other = redis.duplicate()
  })
  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await Promise.all([redis.quit(), other.quit()])
  })

  it('lets one of two instances send an email of a kind to an address per 60 s', async () => {
    const dataDir = await tempDataDir()
    const instances = [redis, other].map(
      (connection) => mailer({ dataDir, throttle: createRedisMailThrottle(connection, keyPrefix) }).mailer,
    )
    await Promise.all(instances.map((m) => m.send(mailOfKind('reset-password', 'Shared@Example.com'))))
    await instances[1]?.send(mailOfKind('reset-password', 'shared@example.com'))
    await instances[0]?.send(mailOfKind('sign-in-code', 'shared@example.com'))
    expect((await readOutbox(dataDir)).map((entry) => entry.kind)).toEqual(['reset-password', 'sign-in-code'])
    const ttl = await redis.pttl(`${keyPrefix}reset-password:shared@example.com`)
    expect(ttl).toBeGreaterThan(55_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  it('holds an address for the window it is given (MAIL_THROTTLE_SECONDS), then lets the next email through', async () => {
    const throttle = createRedisMailThrottle(redis, keyPrefix, 300)
    expect(await throttle.allow('sign-in-code', 'window@example.com')).toBe(true)
    expect(await throttle.allow('sign-in-code', 'window@example.com')).toBe(false)
    const waitMs = await throttle.retryAfterMs('sign-in-code', 'window@example.com')
    expect(waitMs).toBeGreaterThan(0)
    expect(waitMs).toBeLessThanOrEqual(300)
    // Redis ends the claim: asked again until it has (within 5 s).
    await expect.poll(() => throttle.allow('sign-in-code', 'window@example.com'), { timeout: 5_000 }).toBe(true)
    expect(await throttle.retryAfterMs('sign-in-code', 'window@example.com')).toBeGreaterThan(0)
  })

  it('gives the slot back when the delivery failed', async () => {
    const down = mailer({
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      throttle: createRedisMailThrottle(redis, keyPrefix),
    }).mailer
    await expect(down.send(mailOfKind('verify-email', 'retry@example.com'))).rejects.toThrow(MailDeliveryError)
    expect(await createRedisMailThrottle(other, keyPrefix).allow('verify-email', 'retry@example.com')).toBe(true)
  })
})

describe('without SMTP', () => {
  it('keeps the email in the outbox and logs it with the link', async () => {
    const dataDir = await tempDataDir()
    const { mailer: m, logs } = mailer({
      dataDir,
      now: () => Date.parse('2030-01-02T03:04:05.678Z'),
    })
    expect(m.mode).toBe('outbox')
    await m.send(verifyEmail('dev@example.com'))

    const files = await readdir(path.join(dataDir, 'outbox'))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^2030-01-02T03-04-05\.678Z-[0-9a-f]{8}\.json$/)
    expect((await stat(path.join(dataDir, 'outbox', files[0]!))).mode & 0o777).toBe(0o600)

    const [entry, ...others] = await readOutbox(dataDir)
    expect(others).toEqual([])
    expect(entry).toMatchObject({
      createdAt: '2030-01-02T03:04:05.678Z',
      kind: 'verify-email',
      from: mailFrom,
      to: 'dev@example.com',
      subject: 'Confirm your email address for Lingua',
      link: confirmLink,
    })
    expect(entry!.text).toContain(confirmLink)
    expect(entry!.html).toContain('<html lang="en"')

    const line = logs.lines.find((l) => l.msg === 'email kept in the outbox (no SMTP)')
    expect(line).toMatchObject({
      level: 30,
      kind: 'verify-email',
      to: 'dev@example.com',
      subject: 'Confirm your email address for Lingua',
      link: confirmLink,
      outboxFile: files[0],
    })
  })

  it('keeps and logs the sign-in code, and reads the outbox in order with filters', async () => {
    const dataDir = await tempDataDir()
    expect(await readOutbox(dataDir)).toEqual([])
    // A frozen clock: the names still sort in sending order.
    const { mailer: m, logs } = mailer({ dataDir, now: () => 0 })
    await m.send(mailOfKind('sign-in-code', 'code@example.com'))
    await m.send(mailOfKind('verify-email', 'code@example.com'))
    await m.send(mailOfKind('reset-password', 'someone@example.com'))

    const line = logs.lines.find((l) => l.kind === 'sign-in-code')
    expect(line).toMatchObject({ level: 30, to: 'code@example.com', code: '123456' })

    expect((await readOutbox(dataDir)).map((entry) => entry.kind)).toEqual([
      'sign-in-code',
      'verify-email',
      'reset-password',
    ])
    const codes = await readOutbox(dataDir, { to: 'CODE@example.com', kind: 'sign-in-code' })
    expect(codes).toHaveLength(1)
    expect(codes[0]).toMatchObject({ code: '123456', to: 'code@example.com' })
    expect(codes[0]!.text).toContain('123456')
    // Atomic writes leave no temporary files behind.
    expect(
      (await readdir(path.join(dataDir, 'outbox'))).every((name) => name.endsWith('.json')),
    ).toBe(true)
  })

  it('applies the throttle too', async () => {
    const dataDir = await tempDataDir()
    const { mailer: m } = mailer({ dataDir })
    await m.send(mailOfKind('change-email', 'twice@example.com'))
    await m.send(mailOfKind('change-email', 'twice@example.com'))
    expect(await readOutbox(dataDir)).toHaveLength(1)
  })
})

describe('when SMTP is down', () => {
  it('rejects at once with a clear error when the connection is refused, without the password', async () => {
    const port = await closedPort()
    const throttle = createMemoryMailThrottle()
    const { mailer: m, logs } = mailer({
      smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      throttle,
    })

    const started = Date.now()
    const failure = await m.send(verifyEmail('down@example.com')).catch((error: unknown) => error)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(failure).toBeInstanceOf(MailDeliveryError)
    const error = failure as MailDeliveryError
    expect(error.message).toMatch(
      /^Could not send the email through SMTP \(127\.0\.0\.1:\d+\): .*ECONNREFUSED/,
    )
    expect(error.message).not.toContain('s3cret')
    expect(logs.lines.find((line) => line.msg === 'email delivery failed')).toMatchObject({
      level: 40,
      to: 'down@example.com',
    })
    expect(logs.text()).not.toContain('s3cret')
    expect(logs.text()).not.toContain('tok_123')
    // The email did not go out, so the user may ask again right away.
    expect(await throttle.allow('verify-email', 'down@example.com')).toBe(true)
  })

  it(
    'gives up on a server that never answers within the timeouts',
    { timeout: 15_000 },
    async () => {
      const silent = await startSilentServer()
      try {
        const { mailer: m } = mailer({
          smtpUrl: silent.url,
          smtpTimeouts: { connectionMs: 500, greetingMs: 500, socketMs: 30_000 },
        })
        const started = Date.now()
        const failure = await m
          .send(verifyEmail('hang@example.com'))
          .catch((error: unknown) => error)
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(failure).toBeInstanceOf(MailDeliveryError)
        expect((failure as MailDeliveryError).code).toBe('ETIMEDOUT')
      } finally {
        await Promise.all(mailers.splice(0).map((m) => m.close()))
        await silent.stop()
      }
    },
  )

  it('refuses a recipient that is not exactly one address', async () => {
    const { mailer: m } = mailer({ smtpUrl: 'smtp://127.0.0.1:1' })
    for (const to of [
      '',
      'a@example.com, b@example.com',
      'Eve <eve@example.com>',
      'a@x\r\nBcc: b@y',
    ]) {
      await expect(m.send(verifyEmail(to))).rejects.toThrow(/one email address/)
    }
  })

  it('refuses to send after close', async () => {
    const { mailer: m } = mailer({ smtpUrl: 'smtp://127.0.0.1:1' })
    await m.close()
    await expect(m.send(verifyEmail('closed@example.com'))).rejects.toThrow(/closed/)
  })
})

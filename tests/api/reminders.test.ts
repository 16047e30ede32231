import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import type { GradeResult, PracticeQueue, PracticeSettings } from '@/shared/practice'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import type { ReminderState } from '@/shared/reminders'
import { instanceOf, startAppServer } from '../helpers/app-server'
import { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { type TestServer, expectApiError, expectJson } from '../helpers/server'
import { type ReceivedMail, type TestSmtpServer, startSmtpServer } from '../helpers/smtp'

/*
 * The daily practice reminder by email (PRODUCT §13, docs/decisions/0035-reminders.md), through a
 * real SMTP server, with the instances' clock moved by the test and their sweeps run by hand: on
 * PostgreSQL two instances share the database and sweep at the same moments (one email between
 * them); on PGlite, one instance (one process per folder).
 */

const password = 'correct horse battery'

describe.each(databaseTargets())('daily reminders on %s', (target) => {
  let smtp: TestSmtpServer
  let dataDir: string
  let instances: TestServer[]
  let a: TestServer
  let levels: Record<string, LanguageLevel>
  /** Both instances' clock: the tests move it. */
  let clock = new Date('2026-06-01T06:00:00Z')
  const at = (iso: string) => {
    clock = new Date(iso)
  }

  beforeAll(async () => {
    smtp = await startSmtpServer()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-reminders-'))
    // Sweeps run when the test says (an hour apart by themselves, besides the one at start).
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, AUTH_RATE_LIMIT_SCALE: '50', REMINDER_SWEEP_SECONDS: '3600' }
    a = await startAppServer({ database: target, env, now: () => clock })
    const b = target === 'postgres' ? await startAppServer({ env: { ...env, DATABASE_URL: a.database?.url ?? '' }, now: () => clock }) : undefined
    instances = b ? [b, a] : [a]
    levels = Object.fromEntries((await allLevels(new Client(a))).map((level) => [level.code, level]))
  })
  afterAll(async () => {
    // The second instance first: stopping the first drops the database.
    for (const server of instances ?? []) await server.stop()
    await smtp?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  /** Every instance sweeps at once, as they would at the same minute. */
  const sweep = () => Promise.all(instances.map((server) => instanceOf(server).reminders.runNow()))
  const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
  const reminders = (email: string) => mailsTo(email).filter((mail) => mail.headers.has('list-unsubscribe'))

  /**
   * A learner of English A1 (new words wait) with the reminder on at `hour` of `timeZone`; signed
   * up and confirmed through the emailed link, their settings saved in `language` (the reminder's).
   */
  async function learner(
    name: string,
    settings: Partial<PracticeSettingsInput> & { level?: string | null; language?: string } = {},
  ): Promise<{ client: Client; email: string }> {
    const email = `${name}-${target}@example.com`
    const { level = 'A1', language = 'en', ...rest } = settings
    const client = new Client(a, a.url, { 'Accept-Language': language })
    expect((await client.request('POST', '/api/auth/sign-up/email', { name, email, password })).status).toBe(200)
    const confirmation = await smtp.waitFor((mail) => mail.envelope.to.includes(email))
    const token = /[?&]token=([^&\s]+)/.exec(confirmation.text ?? '')?.[1] ?? ''
    expect((await client.request('GET', `/api/auth/verify-email?token=${token}`)).status).toBe(200)
    const profile = { language: 'en', currentLevelId: level ? (levels[level]?.id ?? null) : null, targetLevelId: null }
    expect((await client.request('PUT', '/api/me/profile', profile)).status).toBe(200)
    await save(client, { reminderEnabled: true, reminderHour: 18, ...rest })
    return { client, email }
  }
  const save = (client: Client, settings: Partial<PracticeSettingsInput>) =>
    client
      .request('PUT', '/api/me/practice/settings', { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC', ...settings })
      .then((response) => expectJson<PracticeSettings>(response))
  const settingsOf = (client: Client) => client.request('GET', '/api/me/practice/settings').then((response) => expectJson<PracticeSettings>(response))

  /** The unsubscribe address of a reminder's `List-Unsubscribe` header, on this test's server. */
  function oneClickOf(mail: ReceivedMail): string {
    const header = mail.headers.get('list-unsubscribe') ?? ''
    const url = new URL(/^<(.+)>$/.exec(header)?.[1] ?? 'https://missing.invalid')
    return `${a.url}${url.pathname}${url.search}`
  }

  it('sends one email at the hour of the learner’s day, across instances, in their language, with the one-click headers', async () => {
    // Europe/Berlin is UTC+2 in June: 18:00 there is 16:00 UTC.
    at('2026-06-01T15:30:00Z')
    const { email } = await learner('ada', { timeZone: 'Europe/Berlin', language: 'ru' })
    at('2026-06-01T15:59:30Z')
    await sweep()
    expect(reminders(email)).toHaveLength(0)

    at('2026-06-01T16:00:10Z')
    await sweep()
    await sweep()
    const sent = reminders(email)
    expect(sent).toHaveLength(1)
    const [mail] = sent as [ReceivedMail]
    // Ten new words of A1 allowed today, nothing due yet.
    expect(mail.subject).toBe('Пора заниматься: 10 карточек ждут')
    expect(mail.headers.get('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/reminders\/unsubscribe\?token=[\w.-]+>$/)
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(mail.text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/practice$/m)
    expect(mail.text).toMatch(/^Отключить напоминания: http:\/\/127\.0\.0\.1:\d+\/reminders\/unsubscribe\?token=[\w.%-]+$/m)
    expect(mail.html).toContain('>Отключить напоминания</a>')

    // Within the window still, and later that day: nothing more.
    at('2026-06-01T16:03:00Z')
    await sweep()
    at('2026-06-01T21:00:00Z')
    await sweep()
    expect(reminders(email)).toHaveLength(1)

    // The next day, its own.
    at('2026-06-02T16:01:00Z')
    await sweep()
    expect(reminders(email)).toHaveLength(2)
    expect(reminders(email)[1]?.subject).toBe('Пора заниматься: 10 карточек ждут')
  })

  it('sends nothing before the hour or after its first 5 minutes', async () => {
    at('2026-06-03T08:00:00Z')
    const { email } = await learner('bob', { reminderHour: 9 })
    for (const time of ['2026-06-03T08:59:59Z', '2026-06-03T09:05:00Z', '2026-06-03T09:30:00Z', '2026-06-03T10:00:00Z']) {
      at(time)
      await sweep()
    }
    expect(reminders(email)).toHaveLength(0)
    at('2026-06-04T09:04:59Z')
    await sweep()
    expect(reminders(email).map((mail) => mail.subject)).toEqual(['Time to practise: 10 cards are waiting'])
  })

  it('counts the cards due now and the new words still allowed today', async () => {
    at('2026-06-05T09:00:00Z')
    const { client, email } = await learner('olga', { reminderHour: 10 })
    const { cards } = await expectJson<PracticeQueue>(await client.request('GET', '/api/me/practice/queue?limit=3'))
    // Two forgotten (due again within minutes), one easy (due in days): 2 due, 7 of 10 new words left.
    for (const [index, grade] of [1, 1, 4].entries()) {
      const graded = await client.request('POST', '/api/me/practice/reviews', { clientId: crypto.randomUUID(), wordId: cards[index]?.wordId, grade, version: 0 })
      await expectJson<GradeResult>(graded, 201)
    }
    at('2026-06-05T10:00:00Z')
    await sweep()
    expect(reminders(email).map((mail) => mail.subject)).toEqual(['Time to practise: 9 cards are waiting'])
  })

  it('sends nothing when nothing waits, or when the day’s goal is met', async () => {
    at('2026-06-05T10:00:00Z')
    // No current level and no decks: no new word can come, and nothing is due.
    const idle = await learner('carol', { level: null, reminderHour: 11 })
    // The goal of one review, met before the hour.
    const done = await learner('dave', { reminderHour: 11, dailyGoal: 1 })
    const { cards } = await expectJson<PracticeQueue>(await done.client.request('GET', '/api/me/practice/queue?limit=1'))
    const card = cards[0]
    expect(card).toBeDefined()
    const graded = await done.client.request('POST', '/api/me/practice/reviews', { clientId: crypto.randomUUID(), wordId: card?.wordId, grade: 3, version: 0 })
    await expectJson<GradeResult>(graded, 201)
    // A third, with words waiting and the goal not met, is reminded at the same sweep.
    const waiting = await learner('dora', { reminderHour: 11 })

    at('2026-06-05T11:00:30Z')
    await sweep()
    expect(reminders(idle.email)).toHaveLength(0)
    expect(reminders(done.email)).toHaveLength(0)
    expect(reminders(waiting.email)).toHaveLength(1)
  })

  it('turned on within its hour, sends within 5 minutes of that; otherwise not until the next day', async () => {
    at('2026-06-06T13:50:00Z')
    // Turned on before its hour: the hour's start counts, not this.
    const early = await learner('erin', { reminderHour: 14 })
    at('2026-06-06T14:20:00Z')
    const late = await learner('fred', { reminderHour: 14 })
    // On for days, then moved to the hour under way: as if turned on now.
    const moved = await learner('gina', { reminderHour: 9 })
    await save(moved.client, { reminderHour: 14 })
    const lateSweep = await learner('hugo', { reminderHour: 14 })
    at('2026-06-06T14:24:30Z')
    await sweep()
    expect(reminders(early.email)).toHaveLength(0)
    expect(reminders(late.email)).toHaveLength(1)
    expect(reminders(moved.email)).toHaveLength(1)
    expect(reminders(lateSweep.email)).toHaveLength(1)

    // Turned on at 14:20 but first swept at 14:26: past its 5 minutes.
    at('2026-06-06T14:20:00Z')
    const missed = await learner('ivan', { reminderHour: 14 })
    at('2026-06-06T14:26:00Z')
    await sweep()
    expect(reminders(missed.email)).toHaveLength(0)
  })

  it('stops with the one-click POST of a mail client, and sends no more', async () => {
    at('2026-06-07T07:00:00Z')
    const { client, email } = await learner('jane', { reminderHour: 7 })
    await sweep()
    const [mail] = reminders(email)
    expect(mail).toBeDefined()
    const url = oneClickOf(mail as ReceivedMail)

    // What RFC 8058 says a mail client sends: a form body, from its own servers (no Origin).
    const stopped = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(await expectJson<ReminderState>(stopped)).toEqual({ reminderEnabled: false })
    expect((await settingsOf(client)).reminderEnabled).toBe(false)
    // Again, and multipart as some clients post it: the same answer.
    const form = new FormData()
    form.set('List-Unsubscribe', 'One-Click')
    expect(await expectJson<ReminderState>(await fetch(url, { method: 'POST', body: form }))).toEqual({ reminderEnabled: false })

    at('2026-06-08T07:00:00Z')
    await sweep()
    expect(reminders(email)).toHaveLength(1)
  })

  it('the email’s link changes nothing when opened; its page’s button stops them', async () => {
    at('2026-06-09T19:00:00Z')
    const { client, email } = await learner('kate', { reminderHour: 19 })
    await sweep()
    const [mail] = reminders(email)
    const link = new URL(/^Stop these reminders: (\S+)$/m.exec(mail?.text ?? '')?.[1] ?? 'https://missing.invalid')
    expect(link.pathname).toBe('/reminders/unsubscribe')
    const token = link.searchParams.get('token') ?? ''
    const api = `${a.url}/api/reminders/unsubscribe?token=${encodeURIComponent(token)}`

    // What the page reads (and a mail scanner following the link would): nothing changes.
    expect(await expectJson<ReminderState>(await fetch(api))).toEqual({ reminderEnabled: true })
    expect((await settingsOf(client)).reminderEnabled).toBe(true)

    // The page's button: a POST from the app's own origin, without signing in.
    const visitor = new Client(a)
    expect(await expectJson<ReminderState>(await visitor.request('POST', `/api/reminders/unsubscribe?token=${encodeURIComponent(token)}`))).toEqual({
      reminderEnabled: false,
    })
    expect((await settingsOf(client)).reminderEnabled).toBe(false)
    expect(await expectJson<ReminderState>(await fetch(api))).toEqual({ reminderEnabled: false })

    at('2026-06-10T19:00:00Z')
    await sweep()
    expect(reminders(email)).toHaveLength(1)

    // Turned on again, they come again.
    at('2026-06-11T18:00:00Z')
    await save(client, { reminderEnabled: true, reminderHour: 19 })
    at('2026-06-11T19:01:00Z')
    await sweep()
    expect(reminders(email)).toHaveLength(2)
  })

  it('refuses a token it did not make, and changes nothing', async () => {
    at('2026-06-12T05:00:00Z')
    const mine = await learner('liam', { reminderHour: 5 })
    const other = await learner('mona', { reminderHour: 5 })
    await sweep()
    const token = new URL(/^<(.+)>$/.exec(reminders(mine.email)[0]?.headers.get('list-unsubscribe') ?? '')?.[1] ?? 'https://x.invalid').searchParams.get('token') ?? ''
    const otherToken = new URL(/^<(.+)>$/.exec(reminders(other.email)[0]?.headers.get('list-unsubscribe') ?? '')?.[1] ?? 'https://x.invalid').searchParams.get('token') ?? ''
    const [userId, tag = ''] = token.split('.')
    const [otherId] = otherToken.split('.')
    const flipped = `${tag.slice(0, -2)}${tag.endsWith('AA') ? 'BB' : 'AA'}`
    for (const bad of [
      'nonsense',
      `${userId}.${flipped}`,
      `${otherId}.${tag}`,
      `${userId}.${tag}.extra`,
      `${userId}`,
      `${userId}.`,
      '',
    ]) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`${a.url}/api/reminders/unsubscribe?token=${encodeURIComponent(bad)}`, { method })
        await expectApiError(response, 400, 'invalid_token')
      }
    }
    await expectApiError(await fetch(`${a.url}/api/reminders/unsubscribe`, { method: 'POST' }), 400, 'validation_failed')
    expect((await settingsOf(mine.client)).reminderEnabled).toBe(true)
    expect((await settingsOf(other.client)).reminderEnabled).toBe(true)
  })

  it('answers 403 to a one-click POST from another site’s page, like every write', async () => {
    at('2026-06-13T05:00:00Z')
    const { client, email } = await learner('nina', { reminderHour: 5 })
    await sweep()
    const url = oneClickOf(reminders(email)[0] as ReceivedMail)
    const response = await fetch(url, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    await expectApiError(response, 403, 'forbidden')
    expect((await settingsOf(client)).reminderEnabled).toBe(true)
  })

  // Last: it stops the mail server for a while.
  it('a reminder the mail server refused is tried again at the next sweep of its window, and sent once', async () => {
    at('2026-06-14T05:00:00Z')
    const { email } = await learner('olaf', { reminderHour: 6 })
    const port = smtp.port
    await smtp.stop()
    at('2026-06-14T06:00:00Z')
    await sweep()
    // Logged by whichever instance claimed it.
    expect(instances.some((server) => server.logs.some((line) => line.includes('could not send a practice reminder')))).toBe(true)
    smtp = await startSmtpServer({ port })
    at('2026-06-14T06:01:00Z')
    await sweep()
    await sweep()
    expect(reminders(email)).toHaveLength(1)
  })
})

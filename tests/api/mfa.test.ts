import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { type TestServer, expectApiError } from '../helpers/server'

const password = 'correct horse battery'

/** The current code of an authenticator app set up from `otpauth://…?secret=BASE32`. */
async function authenticatorCode(totpURI: string): Promise<string> {
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  return createOTP(new TextDecoder().decode(base32.decode(secret))).totp()
}

describe.each(databaseTargets())('two-factor authentication on %s', (target) => {
  let server: TestServer
  let dataDir: string
  let totpURI: string
  let backupCodes: string[]
  const email = `mfa-${target}@example.com`

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-mfa-'))
    server = await startAppServer({
      database: target,
      env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_SCALE: '100' },
    })
    const owner = new Client(server)
    await registerAndVerify(owner, dataDir, { email, password })
    const enabled = await owner.request('POST', '/api/auth/two-factor/enable', { password })
    expect(enabled.status).toBe(200)
    ;({ totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] })
    expect(totpURI).toMatch(/^otpauth:\/\/totp\//)
    expect(backupCodes.length).toBeGreaterThanOrEqual(8)
    const confirmed = await owner.request('POST', '/api/auth/two-factor/verify-totp', {
      code: await authenticatorCode(totpURI),
    })
    expect(confirmed.status).toBe(200)
  })
  afterAll(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function expectChallenge(client: Client, response: Response) {
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ twoFactorRedirect: true })
    expect(client.cookies.has('lingua.session_token')).toBe(false)
    expect(await freshUser(client)).toBeNull()
  }

  it('asks for the authentication code after the password, and signs in with it', async () => {
    const client = new Client(server)
    await expectChallenge(
      client,
      await client.request('POST', '/api/auth/sign-in/email', { email, password }),
    )
    const verified = await client.request('POST', '/api/auth/two-factor/verify-totp', {
      code: await authenticatorCode(totpURI),
    })
    expect(verified.status).toBe(200)
    expect(await freshUser(client)).toMatchObject({ email })
  })

  it('asks for it after the emailed sign-in code too', async () => {
    const client = new Client(server)
    const sent = await client.request('POST', '/api/auth/email-otp/send-verification-otp', {
      email,
      type: 'sign-in',
    })
    expect(sent.status).toBe(200)
    const [mail] = (await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })).slice(-1)
    expect(mail?.code).toMatch(/^\d{6}$/)

    await expectChallenge(
      client,
      await client.request('POST', '/api/auth/sign-in/email-otp', { email, otp: mail?.code }),
    )
    const verified = await client.request('POST', '/api/auth/two-factor/verify-totp', {
      code: await authenticatorCode(totpURI),
    })
    expect(verified.status).toBe(200)
    expect(await freshUser(client)).toMatchObject({ email })
  })

  it('refuses a wrong authentication code', async () => {
    const client = new Client(server)
    await client.request('POST', '/api/auth/sign-in/email', { email, password })
    const code = await authenticatorCode(totpURI)
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const refused = await client.request('POST', '/api/auth/two-factor/verify-totp', { code: wrong })
    // The code's fault, on its field: not a 401, which the page would read as "your session ended".
    const error = await expectApiError(refused, 400, 'invalid_token')
    expect(Object.keys(error.fields ?? {})).toEqual(['code'])
    expect(await freshUser(client)).toBeNull()
  })

  it('accepts a backup code once', async () => {
    const code = backupCodes[0] ?? ''
    const first = new Client(server)
    await first.request('POST', '/api/auth/sign-in/email', { email, password })
    expect((await first.request('POST', '/api/auth/two-factor/verify-backup-code', { code })).status).toBe(200)
    expect(await freshUser(first)).toMatchObject({ email })

    const again = new Client(server)
    await again.request('POST', '/api/auth/sign-in/email', { email, password })
    const reused = await again.request('POST', '/api/auth/two-factor/verify-backup-code', { code })
    expect(Object.keys((await expectApiError(reused, 400, 'invalid_token')).fields ?? {})).toEqual(['code'])
    expect(await freshUser(again)).toBeNull()
  })
})

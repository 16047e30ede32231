import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_ECHOED_TEXT } from '@/server/logger'
import { Client } from '../helpers/auth-client'
import { expectApiError, jsonLogs, type ServerProcess, startServer } from '../helpers/server'

/** The log tells operators about the server, not about visitors' mistakes. */
describe('what a visitor’s mistakes write to the log', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ env: { NODE_ENV: 'production', LOG_LEVEL: 'debug' } })
  })

  it('logs a refused callback URL as a warning, repeating at most a bounded part of it', async () => {
    const attackerText = `https://evil.example/${'x'.repeat(5000)}`
    const before = server.logs.length
    const refused = await new Client(server).request('POST', '/api/auth/sign-in/email', {
      email: 'nobody@example.com',
      password: 'not the password',
      callbackURL: attackerText,
    })
    expect(refused.status).toBe(403)
    await expect.poll(() => jsonLogs(server).some((entry) => String(entry.msg).startsWith('Invalid callbackURL'))).toBe(true)
    const lines = jsonLogs(server).slice(-(server.logs.length - before))
    const line = lines.find((entry) => String(entry.msg).startsWith('Invalid callbackURL'))
    expect(line).toMatchObject({ level: 40, component: 'auth' })
    expect(String(line?.msg).length).toBeLessThan(MAX_ECHOED_TEXT + 40)
    expect(lines.filter((entry) => Number(entry.level) >= 50)).toEqual([])
  })

  it('has closed the deprecated path that printed a plain-text warning, and every line is JSON', async () => {
    await expectApiError(
      await new Client(server).request('POST', '/api/auth/forget-password/email-otp', { email: 'nobody@example.com' }),
      404,
      'not_found',
    )
    expect(server.logs.filter((line) => !line.startsWith('{'))).toEqual([])
  })
})

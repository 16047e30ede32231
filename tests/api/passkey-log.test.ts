import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { expectApiError, jsonLogs } from '../helpers/server'
import { type SoftAuthenticator, passkeyMistakes, passkeySignIn, registerPasskey } from '../helpers/webauthn'

/**
 * Issue 29, finding 3: a passkey sign-in that fails because of what the client sent is refused and
 * logged at warn, with at most 200 characters of what was sent — never at error, never with a
 * stack, never as long as what was sent (a 45 000-character origin wrote a 91 KB error line).
 * The hostile-input run sends the same cases and fails on any error line.
 */
describe.each(databaseTargets())('passkey sign-ins refused for the client’s mistakes, on %s', (target) => {
  let world: AdminWorld
  let authenticator: SoftAuthenticator

  beforeAll(async () => {
    world = await startAdminWorld(target, 'passkey-log')
    authenticator = await registerPasskey(world.learner)
  })
  afterAll(async () => {
    await world.stop()
  })

  it('signs in with a well-formed answer (the software authenticator is right)', async () => {
    const signedIn = await passkeySignIn(new Client(world.server), authenticator, { counter: 5 })
    expect(signedIn.status, await signedIn.clone().text()).toBe(200)
  })

  it('refuses each mistake in the error shape, and logs it at warn with at most 200 characters of it', async () => {
    const from = world.server.logs.length
    for (const [what, changes] of passkeyMistakes(5)) {
      const answer = await passkeySignIn(new Client(world.server), authenticator, changes)
      expect([400, 401], what).toContain(answer.status)
      await expectApiError(answer, answer.status, answer.status === 401 ? 'invalid_credentials' : 'bad_request')
    }
    const refusalsLogged = () =>
      jsonLogs({ ...world.server, logs: world.server.logs.slice(from) }).filter((entry) => entry.msg === 'Failed to verify authentication')
    // The log is written without blocking: its last lines arrive a moment after the answers.
    await expect.poll(() => refusalsLogged().length, { timeout: 5000 }).toBe(passkeyMistakes(5).length)
    const lines = world.server.logs.slice(from)
    const entries = jsonLogs({ ...world.server, logs: lines })
    // Their messages only, cut short: a failure must not print the 45 000 characters either.
    expect(entries.filter((entry) => Number(entry.level) >= 50).map((entry) => JSON.stringify(entry).slice(0, 200))).toEqual([])
    for (const refusal of refusalsLogged()) {
      expect(refusal.level).toBe(40)
      expect(JSON.stringify(refusal)).not.toMatch(/"stack"/)
    }
    // What was sent is echoed 200 characters long at most: no run of 201 of the 45 000 'a's.
    expect(lines.join('\n')).not.toContain('a'.repeat(201))
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(2000)
  })
})

import { isRedirect } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { type GuardContext, type SessionUser, runGuards } from '../../src/client/lib/guards'
import { HttpError } from '../../src/client/lib/http-error'

function context(user: SessionUser | null, href = '/dashboard?tab=1'): GuardContext {
  return {
    location: { href, pathname: href.split('?')[0] } as GuardContext['location'],
    context: { auth: { getUser: () => Promise.resolve(user) } },
  }
}

const learner: SessionUser = { id: '1', name: 'Ada', email: 'ada@example.com', role: 'user' }
const admin: SessionUser = { ...learner, id: '2', role: 'admin' }

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the guards to throw')
}

describe('route guards', () => {
  it('refuses a guard name that is not registered', async () => {
    const error = await thrown(runGuards(['auth', 'nope'], context(learner)))
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/^Unknown route middleware/)
  })

  it('sends a signed-out visitor to the login page with the path to return to', async () => {
    for (const name of ['auth', 'admin']) {
      const error = await thrown(runGuards([name], context(null)))
      expect(isRedirect(error)).toBe(true)
      const options = (error as { options: { to: string; search: { redirect: string } } }).options
      expect(options.to).toBe('/login')
      expect(options.search.redirect).toBe('/dashboard?tab=1')
    }
  })

  it('lets a signed-in user through the auth guard', async () => {
    await expect(runGuards(['auth'], context(learner))).resolves.toBeUndefined()
  })

  it('answers 403 "Administrators only" to a signed-in non-admin', async () => {
    const error = await thrown(runGuards(['admin'], context(learner)))
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).status).toBe(403)
    expect((error as HttpError).message).toBe('Administrators only')
  })

  it('lets an admin through the admin guard', async () => {
    await expect(runGuards(['admin'], context(admin))).resolves.toBeUndefined()
  })

  it('sends a signed-in user away from guest pages to the dashboard', async () => {
    const error = await thrown(runGuards(['guest'], context(learner)))
    expect(isRedirect(error)).toBe(true)
    expect((error as { options: { to: string } }).options.to).toBe('/dashboard')
    await expect(runGuards(['guest'], context(null))).resolves.toBeUndefined()
  })
})

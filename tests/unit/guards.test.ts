import { isRedirect } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import type { SessionUser } from '@/client/lib/auth'
import { type GuardContext, runGuards } from '@/client/lib/guards'
import { HttpError } from '@/client/lib/http-error'

function context(user: SessionUser | null, href = '/dashboard?tab=1', fresh = user): GuardContext {
  const url = new URL(href, 'http://app.test')
  return {
    location: {
      href,
      pathname: url.pathname,
      search: Object.fromEntries(url.searchParams),
    } as GuardContext['location'],
    context: { auth: { getUser: () => Promise.resolve(user), getFreshUser: () => Promise.resolve(fresh) } },
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

  it('asks the database before refusing: a role granted a moment ago counts', async () => {
    await expect(runGuards(['admin'], context(learner, '/admin/language-levels', admin))).resolves.toBeUndefined()
  })

  it('sends a signed-in user away from guest pages: to ?redirect= when same-origin, else the dashboard', async () => {
    const target = async (href: string) => {
      const error = await thrown(runGuards(['guest'], context(learner, href)))
      expect(isRedirect(error)).toBe(true)
      return (error as { options: { href: string } }).options.href
    }
    expect(await target('/login')).toBe('/dashboard')
    expect(await target('/login?redirect=%2Faccount%3Ftab%3D2')).toBe('/account?tab=2')
    expect(await target('/login?redirect=%2F%2Fevil.example')).toBe('/dashboard')
    expect(await target('/login?redirect=https%3A%2F%2Fevil.example')).toBe('/dashboard')
    await expect(runGuards(['guest'], context(null, '/login'))).resolves.toBeUndefined()
  })
})

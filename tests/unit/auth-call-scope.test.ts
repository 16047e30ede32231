import { executionAsyncResource } from 'node:async_hooks'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { describe, expect, it } from 'vitest'
import { authStores, scopeAuthCalls } from '@/server/auth/call-scope'

/**
 * Whether async_hooks' promise hooks are on: with them, the code after an `await` runs in the
 * awaited promise's own async resource; without them, in the caller's.
 */
async function promiseHooksOn(): Promise<boolean> {
  const before = executionAsyncResource()
  await Promise.resolve()
  return executionAsyncResource() !== before
}

// better-auth itself, on its in-memory adapter: the stores are its own, made by its own calls.
const auth = scopeAuthCalls(
  betterAuth({
    baseURL: 'http://localhost:3000',
    secret: 'a test secret that is long enough for better-auth',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
  }),
)
const password = 'correct horse battery staple'
const signUp = (email: string) => auth.api.signUpEmail({ body: { name: 'Scope Test', email, password } })

describe('better-auth calls, counted (auth/call-scope.ts)', () => {
  it('leaves the promise hooks off once its calls are done, and its next call works', async () => {
    expect(await promiseHooksOn()).toBe(false)
    const { user } = await signUp('first@example.com')
    expect(user.email).toBe('first@example.com')
    expect(authStores().length).toBeGreaterThan(0)
    expect(await promiseHooksOn()).toBe(false)

    const { token } = await auth.api.signInEmail({ body: { email: 'first@example.com', password } })
    const session = await auth.api.getSession({ headers: new Headers({ authorization: `Bearer ${token}` }) })
    expect(await promiseHooksOn()).toBe(false)
    expect(session).toBeNull() // no bearer plugin: the cookie is the only way, as in the app
  })

  it('keeps them on while any call is under way, and the calls keep their own state', async () => {
    const first = signUp('one@example.com')
    const second = signUp('two@example.com')
    // better-auth has entered its stores; both calls are still running.
    await new Promise((resolve) => setImmediate(resolve))
    expect(await promiseHooksOn()).toBe(true)
    const [one, two] = await Promise.all([first, second])
    expect([one.user.email, two.user.email]).toEqual(['one@example.com', 'two@example.com'])
    expect(await promiseHooksOn()).toBe(false)
  })

  it('counts the internal adapter and a call that fails', async () => {
    const { internalAdapter } = await auth.$context
    expect((await internalAdapter.findUserByEmail('first@example.com'))?.user.name).toBe('Scope Test')
    await expect(signUp('first@example.com')).rejects.toThrow()
    expect(await promiseHooksOn()).toBe(false)
    const request = new Request('http://localhost:3000/api/auth/ok')
    expect((await auth.handler(request)).status).toBe(200)
    expect(await promiseHooksOn()).toBe(false)
  })
})

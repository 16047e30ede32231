import { executionAsyncResource } from 'node:async_hooks'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { describe, expect, it } from 'vitest'

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
const auth = betterAuth({
  baseURL: 'http://localhost:3000',
  secret: 'a test secret that is long enough for better-auth',
  database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
  emailAndPassword: { enabled: true },
  logger: { disabled: true },
})
const password = 'correct horse battery staple'
const signUp = (email: string) => auth.api.signUpEmail({ body: { name: 'Store Test', email, password } })

// better-auth keeps each call's state in AsyncLocalStorage stores. On Node 20 a store that had run
// once kept async_hooks' promise hooks on for good, and every promise of every request paid for
// them (decision 0016, and the wrapper it needed until Node 24). Node 24 builds the stores on
// AsyncContextFrame, without hooks (decision 0030): this fails if that stops being so.
describe("better-auth's async stores on Node 24 (decisions 0016, 0030)", () => {
  it('never turn the promise hooks on, during its calls or after them', async () => {
    expect(await promiseHooksOn()).toBe(false)
    const first = signUp('one@example.com')
    const second = signUp('two@example.com')
    // better-auth has entered its stores; both calls are still running.
    await new Promise((resolve) => setImmediate(resolve))
    expect(await promiseHooksOn()).toBe(false)
    const [one, two] = await Promise.all([first, second])
    // Each call kept its own state.
    expect([one.user.email, two.user.email]).toEqual(['one@example.com', 'two@example.com'])
    expect(await promiseHooksOn()).toBe(false)
    const request = new Request('http://localhost:3000/api/auth/ok')
    expect((await auth.handler(request)).status).toBe(200)
    expect(await promiseHooksOn()).toBe(false)
  })
})

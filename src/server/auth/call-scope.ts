import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * better-auth keeps the state of each call (its endpoint context, request state and adapter
 * transaction) in AsyncLocalStorage stores. On Node 20 a store that has run once keeps async_hooks'
 * promise hooks on for good, and then every promise of every request pays for them, whether it
 * has anything to do with better-auth or not: after the first sign-in, a public read of the levels
 * took a sixth more CPU (bench/api.mjs --cpu-prof: promiseInitHook, emitInit…, _propagate).
 *
 * So the calls into better-auth are counted, and when the last one under way has finished, its
 * stores are switched off (`disable()`; Node turns the hooks off with the last store), until its
 * next call's `run()` switches them on again. Nothing of better-auth is under way then, so no store
 * is wanted: better-auth awaits its work within the call (the app sets no
 * `advanced.backgroundTasks`), and a call made from within another (a hook of the app using the
 * internal adapter) keeps the count above zero.
 *
 * Every way into better-auth the app takes is counted: `handler`, every `api` endpoint and the
 * internal adapter of `$context`.
 */
export function scopeAuthCalls<
  T extends {
    handler: (request: Request) => Promise<Response>
    api: object
    $context: Promise<{ internalAdapter: object }>
  },
>(auth: T): T {
  const api = countedMethods(auth.api)
  const handler = counted(auth.handler, auth)
  let context: T['$context'] | undefined
  /** The context with its internal adapter counted; made on first use (it may reject). */
  const scopedContext = () =>
    (context ??= auth.$context.then((found) => {
      const internalAdapter = countedMethods(found.internalAdapter)
      return new Proxy(found, {
        get: (target, key, receiver): unknown =>
          key === 'internalAdapter' ? internalAdapter : Reflect.get(target, key, receiver),
      })
    }) as T['$context'])
  return new Proxy(auth, {
    get(target, key, receiver): unknown {
      if (key === 'api') return api
      if (key === 'handler') return handler
      if (key === '$context') return scopedContext()
      return Reflect.get(target, key, receiver)
    },
  })
}

let underWay = 0

/** better-auth's stores, kept on its process-wide object (one per copy of better-auth). */
export function authStores(): AsyncLocalStorage<unknown>[] {
  const global = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[
    Symbol.for('better-auth:global')
  ]
  return Object.values(global?.context ?? {}).filter((value) => value instanceof AsyncLocalStorage)
}

function finished() {
  underWay -= 1
  if (underWay === 0) for (const store of authStores()) store.disable()
}

/** `fn` (called on `self`), counted from its call until its promise settles. */
function counted<F extends (...args: never[]) => unknown>(fn: F, self: unknown): F {
  return new Proxy(fn, {
    apply(target, _this, args) {
      underWay += 1
      let result: unknown
      try {
        result = Reflect.apply(target, self, args)
      } catch (error) {
        finished()
        throw error
      }
      if (result instanceof Promise) return result.finally(finished)
      finished()
      return result
    },
  })
}

/** `object` with each of its methods counted (the functions keep their own properties). */
function countedMethods<O extends object>(object: O): O {
  const made = new Map<PropertyKey, unknown>()
  return new Proxy(object, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver)
      if (typeof value !== 'function') return value
      let wrapped = made.get(key)
      if (!wrapped) {
        wrapped = counted(value as (...args: never[]) => unknown, target)
        made.set(key, wrapped)
      }
      return wrapped
    },
  })
}

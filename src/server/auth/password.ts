import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * Password hashing on node:crypto's scrypt, which runs in libuv's thread pool: better-auth's default
 * is pure JavaScript on the main thread and would stall every other request during a sign-in.
 * Format: `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later.
 */
const N = 16384
const r = 16
const p = 1
const KEY_LENGTH = 64

/**
 * How many derivations may run at once: two fewer than libuv's thread pool has threads (4 unless
 * UV_THREADPOOL_SIZE says otherwise), at least one. That pool is shared, first come first served,
 * with every other asynchronous crypto call of the process (better-auth checks the signature of
 * each session cookie with WebCrypto, which runs there), DNS lookups (connecting to the database
 * by host name) and file reads. Without a limit, a burst of sign-ins held every thread for the
 * tens of milliseconds of each hash while the session reads queued behind all of them (found by
 * bench/soak.mjs: on two cores, 16 sign-ins at once delayed `GET /api/auth/get-session` by 2.7 s
 * while the public list, which needs no thread, answered within 0.3 s). Queued sign-ins wait here
 * instead, behind each other only; with no more cores than two, they are no slower for it.
 */
const MAX_CONCURRENT_DERIVATIONS = Math.max(1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2)

let derivations = 0
const waitingForDerivation: (() => void)[] = []

/** Runs `task` once fewer than MAX_CONCURRENT_DERIVATIONS run; a finishing one hands over its turn. */
async function inTurn<T>(task: () => Promise<T>): Promise<T> {
  if (derivations < MAX_CONCURRENT_DERIVATIONS) derivations++
  else await new Promise<void>((resolve) => waitingForDerivation.push(resolve))
  try {
    return await task()
  } finally {
    const next = waitingForDerivation.shift()
    if (next) next()
    else derivations--
  }
}

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        )
      }),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, N, r, p)
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const [scheme, n, rr, pp, salt, key] = hash.split('$')
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !key) return false
  const expected = Buffer.from(key, 'base64')
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(rr), Number(pp))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

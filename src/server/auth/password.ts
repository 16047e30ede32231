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

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
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

// The databases of the tests, the benchmarks and `npm test`: a fresh PostgreSQL database of its
// own, a Redis key prefix of its own, and whether the local services answer at all.
import { randomBytes } from 'node:crypto'
import net from 'node:net'

/** Where `npm test` and CI look for PostgreSQL and Redis when no URL is given. */
export const localPostgresUrl = 'postgres://postgres@127.0.0.1:5432/test'
export const localRedisUrl = 'redis://127.0.0.1:6379'

/** Runs one statement on the database of `url`, on a connection of its own. */
async function runOn(url, text) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

/**
 * Creates an empty database `<prefix>_<random>` on the server of `adminUrl` (a user allowed to
 * create databases). `admin(sql)` runs a statement as that user; `drop()`, safe to call twice,
 * drops the database and ends what is still connected to it.
 */
export async function createPostgresDatabase(adminUrl, prefix) {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = (text) => runOn(adminUrl, text)
  await admin(`CREATE DATABASE "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let dropped
  return {
    name,
    url: url.toString(),
    admin,
    drop: () => (dropped ??= admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => undefined)),
  }
}

/**
 * A fresh key prefix (for REDIS_KEY_PREFIX) on the Redis of `redisUrl`, so that a run neither sees
 * nor disturbs the keys of others; `countKeys()` counts its keys, `drop()` deletes them and
 * disconnects.
 */
export async function createRedisNamespace(redisUrl, prefixBase) {
  const { Redis } = await import('ioredis')
  const prefix = `${prefixBase}-${randomBytes(6).toString('hex')}:`
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await client.connect()
  const keys = async function* () {
    let cursor = '0'
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      yield batch
    } while (cursor !== '0')
  }
  let dropped
  return {
    url: redisUrl,
    prefix,
    client,
    async countKeys() {
      let total = 0
      for await (const batch of keys()) total += batch.length
      return total
    },
    drop: () =>
      (dropped ??= (async () => {
        for await (const batch of keys()) if (batch.length > 0) await client.del(...batch)
      })().finally(() => client.disconnect())),
  }
}

const withTimeout = (promise, ms) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())])

/** Whether PostgreSQL at `url` takes a connection and answers a query: undefined, or why not. */
export async function postgresProblem(url, timeoutMs = 3000) {
  try {
    await withTimeout(runOn(url, 'select 1'), timeoutMs)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Whether Redis at `url` answers PING (without credentials): undefined, or why not. */
export function redisProblem(url, timeoutMs = 3000) {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) })
    let answer = ''
    const done = (problem) => {
      socket.destroy()
      resolve(problem)
    }
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`))
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG') ? undefined : `answered ${JSON.stringify(answer.trim())}`)
    })
    socket.on('error', (error) => done(error.message))
    socket.on('close', () => done('the connection closed without an answer'))
  })
}

// Start-up: the two instances' server options (one APP_URL, Redis prefix and outbox for both, the
// probe loaded), and the accounts, levels and learner's day (profile, practice settings, a deck,
// the Anki package of the imports) the traffic uses.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { cookieString, registerAndVerify } from '../lib.mjs'
import { adminEmail, learnerCount, password, redisUrl } from './options.mjs'
import { ankiPackage, buildAnkiPackage, learnerState, setUpLearnerDay } from './learner.mjs'
import { admin, learners, levels, run } from './traffic.mjs'

const probeFile = path.join(import.meta.dirname, '..', 'soak-probe.mjs')
const probeFileOf = (dataDir, name) => path.join(dataDir, `probe-${name}.jsonl`)

/** The options of `withServer` for instance `name` on `port`, sharing `dataDir`, `database` and `redis`. */
export function serverOptions(name, port, { dataDir, database, redis }) {
  const sharedEnv = {
    // One public origin for both, as behind a balancer: better-auth refuses a POST whose Origin is
    // not APP_URL, and every emailed link points there.
    APP_URL: run.appUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redis.prefix,
    ADMIN_EMAILS: adminEmail,
    // All traffic comes from 127.0.0.1: at ×10 000 the per-address limits (10 sign-ins, 100 other
    // auth requests a minute…) are far above any --rate, so no sign-in or session read is refused.
    AUTH_RATE_LIMIT_SCALE: '10000',
  }
  return {
    // Both write their outbox (the verification emails) into the shared DATA_DIR, as on one volume.
    dataDir,
    databaseUrl: database.url,
    port,
    env: { ...sharedEnv, SOAK_PROBE_FILE: probeFileOf(dataDir, name) },
    nodeArgs: ['--expose-gc', `--import=${pathToFileURL(probeFile).href}`],
  }
}

export const makeInstance = (name, server, dataDir) =>
  ({ name, server, url: server.url, probeFile: probeFileOf(dataDir, name), probeLines: 0, requests: 0, failures: 0, latencies: [] })

/**
 * Registers the administrator and the learners on `serverA`, reads the levels, checks the
 * administrator's role on `serverB`; gives each learner a profile (English, the first level),
 * practice settings and a deck, and writes the Anki package of the imports.
 */
export async function setUpAccounts(serverA, serverB) {
  // The administrator and the learners, each signed in by the link of their verification email.
  const adminJar = await registerAndVerify(serverA, { name: 'Soak Admin', email: adminEmail, password })
  admin.jar = new Map(Object.entries(adminJar))
  for (let i = 0; i < learnerCount; i += 5) {
    const batch = Array.from({ length: Math.min(5, learnerCount - i) }, (_, j) => ({
      name: `Soak Learner ${i + j + 1}`,
      email: `soak-learner-${i + j + 1}@example.com`,
      password,
    }))
    const jars = await Promise.all(batch.map((account) => registerAndVerify(serverA, account)))
    batch.forEach((account, j) => learners.push({ email: account.email, jar: new Map(Object.entries(jars[j])), signingIn: false, ...learnerState() }))
  }
  const page = await (await fetch(`${serverA.url}/api/language-levels?pageSize=100`)).json()
  levels.push(
    ...page.items.map(({ id, position, version, name }) => ({ id, position, version, name, editing: false, versionUnknown: false })),
  )
  if (levels.length === 0) throw new Error('no language levels: the seed migration did not run')
  // An administrators' read (the role is read from the database, the session's copy may be older).
  const usage = await fetch(`${serverB.url}/api/language-levels/${levels[0].id}/usage`, { headers: { Cookie: cookieString(adminJar) } })
  if (usage.status !== 200) throw new Error(`${adminEmail} is not an administrator (ADMIN_EMAILS): ${usage.status}`)
  // The learner's day: new words of the first level (the starter set's), and a deck of their own.
  const [firstLevel] = [...levels].sort((a, b) => a.position - b.position)
  for (let i = 0; i < learners.length; i += 5) await Promise.all(learners.slice(i, i + 5).map((learner) => setUpLearnerDay(serverA, learner, firstLevel)))
  await buildAnkiPackage(serverA.dataDir)
  console.log(
    `accounts: 1 administrator, ${learners.length} learners (English, ${firstLevel.name}, a deck each); ${levels.length} levels; ` +
      `Anki package of the imports ${(ankiPackage.bytes.length / 1024).toFixed(0)} KiB\n`,
  )
}

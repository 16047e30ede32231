// The soak's options (command line and environment), its constants, and its seeded randomness.
// Read on import, after the build check: a wrong option or a missing URL exits with code 2.
import { parseArgs, parseDuration, requireBuild } from '../lib.mjs'

requireBuild()

const args = parseArgs()
const seconds = (value, fallback) => parseDuration(String(value ?? fallback)) / 1000
export const rate = Number(args.rate ?? 50)
export const durationS = seconds(args.duration, 600)
export const warmupS = seconds(args.warmup, Math.min(60, Math.round(durationS / 5)))
export const sampleS = seconds(args.sample, 30)
export const learnerCount = Math.max(2, Number(args.learners ?? 20))
export const timeoutMs = seconds(args.timeout, 10) * 1000
const seed = Number(args.seed ?? 1)
if (![rate, durationS, warmupS, sampleS, timeoutMs].every((v) => Number.isFinite(v) && v >= 0) || rate <= 0 || warmupS >= durationS || sampleS < 1) {
  console.error('--rate must be > 0, --duration longer than --warmup, --sample ≥ 1 s (durations in seconds or 10s/2m).')
  process.exit(2)
}
export const adminUrl = process.env.TEST_DATABASE_URL || undefined
export const redisUrl = process.env.TEST_REDIS_URL || undefined
if (!adminUrl || !redisUrl) {
  console.error(
    'bench/soak.mjs needs TEST_DATABASE_URL (a PostgreSQL URL of a user allowed to create databases, e.g. ' +
      'postgres://postgres@127.0.0.1:5432/test) and TEST_REDIS_URL (e.g. redis://127.0.0.1:6379): the two ' +
      'instances share them.',
  )
  process.exit(2)
}

/** What a trend from the middle to the end must exceed, both ways, to count as growth. */
export const growth = { ratio: 1.1, rssBytes: 10 * 1024 ** 2, handles: 10, fds: 10, heapBytes: 5 * 1024 ** 2 }
export const password = 'correct horse battery staple 42'
/** An import not ended this long after its upload began is a failure; its job is polled this often. */
export const importDeadlineMs = 60_000
export const importPollMs = 250
export const adminEmail = 'soak-admin@example.com'

// --- Randomness: seeded, so that a run's mix can be replayed (--seed) ---------------------------

function mulberry32(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
export const random = mulberry32(seed)
export const pick = (items) => items[Math.floor(random() * items.length)]

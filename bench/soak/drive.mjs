// The drive: the open loop that sends --rate requests a second to the two instances in turn, and
// the samples taken on schedule while it runs.
import { durationS, rate, sampleS, warmupS } from './options.mjs'
import { pgConnections, takeSample } from './samples.mjs'
import { learnerActions } from './learner.mjs'
import { actions, inFlight, instances, pickKind, run } from './traffic.mjs'

/** Every kind's action: the sessions', levels' and profile's (traffic.mjs) and the learner's day (learner.mjs). */
const allActions = { ...actions, ...learnerActions }

/** How late each request after the warm-up was sent (ms), the most in flight at once, and how long the traffic ran (s). */
export const driver = { dispatchLag: [], peakInFlight: 0, trafficS: Number.NaN }

/**
 * Sends `rate` requests a second, whatever the answers (open loop), for the duration and until the
 * end sample is taken (so that it sees the servers under the same traffic as the others).
 */
export async function drive() {
  const startedAt = performance.now()
  run.warmupEndsAt = startedAt + warmupS * 1000

  // Sample times: every --sample seconds, and the labelled start (end of warm-up), middle and end.
  const labelled = [
    [warmupS, 'start'],
    [warmupS + (durationS - warmupS) / 2, 'middle'],
    [durationS, 'end'],
  ]
  const times = [...labelled]
  for (let t = sampleS; t < durationS; t += sampleS) {
    if (labelled.every(([at]) => Math.abs(at - t) >= Math.min(5, sampleS / 2))) times.push([t, 'trend'])
  }
  times.sort((x, y) => x[0] - y[0])
  let sampled = false
  const sampling = (async () => {
    for (const [at, label] of times) {
      const wait = startedAt + at * 1000 - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      await takeSample(label, (performance.now() - startedAt) / 1000)
    }
  })().finally(() => (sampled = true))

  // PostgreSQL connections between the samples too, for the peak.
  const pgPoll = setInterval(() => void pgConnections().catch(() => {}), 2000)
  let launched = 0
  const dispatch = setInterval(() => {
    const now = performance.now()
    const due = Math.floor(((now - startedAt) / 1000) * rate)
    for (; launched < due; launched++) {
      const scheduledAt = startedAt + (launched * 1000) / rate
      if (scheduledAt >= run.warmupEndsAt) driver.dispatchLag.push(now - scheduledAt)
      const instance = instances[launched % 2]
      const request = allActions[pickKind()](instance).finally(() => inFlight.delete(request))
      inFlight.add(request)
    }
    driver.peakInFlight = Math.max(driver.peakInFlight, inFlight.size)
    if (sampled) clearInterval(dispatch)
  }, 5)
  try {
    await sampling
  } finally {
    clearInterval(dispatch)
    clearInterval(pgPoll)
  }
  driver.trafficS = (performance.now() - startedAt) / 1000
  // What is still in flight finishes (within the timeout) before the servers stop.
  await Promise.allSettled([...inFlight])
}

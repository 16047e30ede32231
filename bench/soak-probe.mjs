// Loaded into each server of bench/soak.mjs before the app (`node --expose-gc --import <this file>
// dist/server/main.js`): bench code, not server code, and the server has no metrics endpoint. On
// SIGUSR2 it appends one JSON line to the file named by SOAK_PROBE_FILE:
//   - loop: the event-loop delay since the previous line (perf_hooks.monitorEventLoopDelay, 10 ms
//     resolution; p50/p99/max/mean in milliseconds), then reset;
//   - memory: process.memoryUsage() in bytes, taken after a full garbage collection (global.gc,
//     from --expose-gc) so that heapUsed is what is still referenced, not what waits to be freed;
//   - resources: process.getActiveResourcesInfo() counted by type (sockets, timers, …) and in total;
//   - cpu: process.cpuUsage() (user and system microseconds since the start, threads included).
// Without SOAK_PROBE_FILE it does nothing. The open file descriptors are read by the driver from
// /proc/<pid>/fd.
import { appendFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const file = process.env.SOAK_PROBE_FILE

if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100

  // A signal listener keeps nothing alive: the server stops as it would without the probe.
  process.on('SIGUSR2', () => {
    const loop = {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      mean: ms(delay.mean),
    }
    delay.reset()
    // Read before the collection, which would count as the loop's own delay.
    const resources = {}
    for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1
    const gcStarted = performance.now()
    globalThis.gc?.()
    const gcMs = Math.round((performance.now() - gcStarted) * 10) / 10
    const memory = process.memoryUsage()
    const handles = Object.values(resources).reduce((a, b) => a + b, 0)
    const cpu = process.cpuUsage()
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), loop, memory, gcMs, handles, resources, cpu })}\n`)
  })
}

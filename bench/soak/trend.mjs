// The trend verdict: each instance's figures at the end against the middle, both after the warm-up,
// with the least-squares slope over every sample from the start.
import { printTable } from '../lib.mjs'
import { fmt, mb } from './format.mjs'
import { growth } from './options.mjs'
import { samples } from './samples.mjs'
import { instances } from './traffic.mjs'

// Handles and descriptors without the client connections (see `descriptors` in samples.mjs): what
// is left is the server's own (listening socket, database and Redis connections, timers, files).
const metrics = [
  { label: 'RSS floor MB', value: (m) => m.rssFloor, show: mb, floor: growth.rssBytes, judged: true },
  { label: 'RSS MB (one read)', value: (m) => m.memory.rss, show: mb, floor: growth.rssBytes, judged: false },
  { label: 'handles − client conns', value: (m) => m.handles - m.clients, show: (v) => v, floor: growth.handles, judged: true },
  { label: 'open fds − client conns', value: (m) => m.fds - m.clients, show: (v) => v, floor: growth.fds, judged: true },
  { label: 'heap used MB', value: (m) => m.memory.heapUsed, show: mb, floor: growth.heapBytes, judged: false },
  { label: 'client conns', value: (m) => m.clients, show: (v) => v, floor: growth.handles, judged: false },
]
const grew = (from, to, floor) => to > from * growth.ratio && to - from > floor

/** Least-squares slope per minute of `value` for instance `i` over the samples from `start` (the end of the warm-up) on. */
function slopePerMinute(start, i, value) {
  const points = samples.filter((s) => s.t >= start.t).map((s) => [s.t / 60, value(s.instances[i])])
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0)
  return sxx === 0 ? Number.NaN : points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / sxx
}

/** Prints the trend table; returns the labelled samples and the rows (`judged` and `up`: growth found). */
export function printTrend() {
  const at = (label) => samples.find((s) => s.label === label)
  const [start, middle, end] = ['start', 'middle', 'end'].map(at)
  const trendRows = []
  for (const [i, instance] of instances.entries()) {
    for (const metric of metrics) {
      const [s, m, e] = [start, middle, end].map((sample) => metric.value(sample.instances[i]))
      const up = grew(m, e, metric.floor)
      const slope = slopePerMinute(start, i, metric.value)
      trendRows.push({
        instance: instance.name,
        metric: metric.label,
        start: metric.show(s),
        middle: metric.show(m),
        end: metric.show(e),
        change: `${e >= m ? '+' : ''}${metric.show(e - m)} (${fmt(((e - m) / m) * 100)} %)`,
        slope: Number.isFinite(slope) ? `${slope >= 0 ? '+' : ''}${metric.show === mb ? fmt(slope / 1024 ** 2, 2) : fmt(slope, 2)}` : '–',
        verdict: up ? (metric.judged ? 'growth' : 'growth, not judged') : 'flat',
        judged: metric.judged,
        up,
      })
    }
  }
  console.log(
    `\nTrend after the warm-up, middle (t=${middle.t} s) → end (t=${end.t} s); growth = end > middle by more than ` +
      `${Math.round((growth.ratio - 1) * 100)} % and ${mb(growth.rssBytes)} MB RSS / ${growth.handles} handles / ${growth.fds} fds ` +
      `(RSS judged on its floor over 1 s; one read, heap and client connections shown, not judged); slope: least squares over every sample from the start:\n`,
  )
  printTable(trendRows, [
    { key: 'instance', label: 'inst', align: 'left' },
    { key: 'metric', label: 'metric', align: 'left' },
    { key: 'start', label: 'start', align: 'right' },
    { key: 'middle', label: 'middle', align: 'right' },
    { key: 'end', label: 'end', align: 'right' },
    { key: 'change', label: 'middle → end', align: 'right' },
    { key: 'slope', label: 'slope /min', align: 'right' },
    { key: 'verdict', label: 'trend', align: 'left' },
  ])
  return { start, middle, end, trendRows }
}

// Figures and printing: statistics, tables, the environment line, the summary line, options.
import os from 'node:os'

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The value below which `p` % of `values` lie (nearest rank); NaN for none. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
}

export function stats(values) {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.length,
  }
}

export const round = (value, digits = 1) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : null

/** Kilobytes of 1000 bytes, as Vite's build output and the bundle target count them. */
export const kb = (bytes, digits = 1) => (bytes / 1000).toFixed(digits)

/**
 * Prints rows (objects) as an aligned text table. `columns`: [{ key, label, align: 'left'|'right' }];
 * numbers are right-aligned by default.
 */
export function printTable(rows, columns) {
  const cells = rows.map((row) => columns.map((c) => (row[c.key] === undefined || row[c.key] === null ? '–' : String(row[c.key]))))
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i].length)))
  const alignOf = (c, i) => c.align ?? (rows.every((row) => typeof row[c.key] !== 'string') ? 'right' : i === 0 ? 'left' : 'right')
  const pad = (text, i) => (alignOf(columns[i], i) === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]))
  const line = (values) => values.map(pad).join('  ').trimEnd()
  console.log(line(columns.map((c) => c.label)))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of cells) console.log(line(row))
}

/**
 * The 1-minute load average when the script began (printEnvironment notes it) and the core count.
 * Above the core count the machine was busy before the bench added its own work: timings are
 * printed but not judged, and a met target says so instead of PASS (a miss is still a MISS).
 */
const machine = { load: os.loadavg()[0], cores: os.cpus().length }
export const machineWasBusy = () => machine.load > machine.cores

/** PASS or MISS; `timed` figures (speed, not sizes or scores of a static kind) on a busy machine: no verdict. */
export const verdict = (ok, { timed = true } = {}) => (!ok ? 'MISS' : timed && machineWasBusy() ? 'within (busy: no verdict)' : 'PASS')

/** The line that says why targets were not judged, when they were not. */
export function printBusyNote() {
  if (machineWasBusy()) {
    console.log(
      `\nthe load average at the start (${machine.load.toFixed(2)}) passed the core count (${machine.cores}): the timings are not judged; run it on a quiet machine`,
    )
  }
}

/**
 * Prints the targets as a table, one row per `[figure, value, target, ok]` with `PASS` or `MISS`.
 * `labels` names the figure and target columns (the value column is "value", the verdict's has none).
 */
export function printTargets(checks, labels = { figure: 'figure', target: 'target' }) {
  printTable(
    checks.map(([figure, value, target, ok]) => ({ figure, value, target, verdict: verdict(ok) })),
    [
      { key: 'figure', label: labels.figure, align: 'left' },
      { key: 'value', label: 'value', align: 'right' },
      { key: 'target', label: labels.target, align: 'right' },
      { key: 'verdict', label: '', align: 'left' },
    ],
  )
  printBusyNote()
}

/** The last line of every script: `BENCH_SUMMARY {"bench":"…",…}` on one line, for machines. */
export function printSummary(bench, data) {
  console.log(`BENCH_SUMMARY ${JSON.stringify({ bench, at: new Date().toISOString(), judged: !machineWasBusy(), ...data })}`)
}

/** Node, CPU count and load, printed at the top so figures can be compared across machines. */
export function printEnvironment(extra = {}) {
  const cpus = os.cpus()
  const info = {
    node: process.version,
    cpus: `${cpus.length} × ${cpus[0]?.model?.trim() ?? '?'}`,
    loadavg: os.loadavg().map((v) => v.toFixed(2)).join(' ') + (machineWasBusy() ? ' (busy: timings will not be judged)' : ''),
    ...extra,
  }
  console.log(Object.entries(info).map(([k, v]) => `${k}: ${v}`).join(' | '))
}

/** `--name=value` / `--flag` command-line options. */
export function parseArgs(argv = process.argv.slice(2)) {
  const options = {}
  for (const arg of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg)
    if (m) options[m[1]] = m[2] ?? true
  }
  return options
}

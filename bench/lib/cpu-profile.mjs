// What a V8 CPU profile (`node --cpu-prof`) says the time went to: self time by function and by
// place (a package of node_modules, a file of the app, Node's own code, the garbage collector).
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { printTable } from './report.mjs'

/** The place a frame's code lives in: `pkg:name`, `app:file`, `node:…` or V8's own entries. */
function placeOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)'
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (inModules) return `pkg:${inModules[1]}`
  if (url.startsWith('node:')) return url.split('/')[0]
  return `app:${path.basename(url)}`
}

/** Self time (ms) by function and by place, from the newest `.cpuprofile` in `dir`. */
export async function readCpuProfile(dir) {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort()
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`)
  const profile = JSON.parse(await readFile(path.join(dir, files.at(-1)), 'utf8'))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfUs = new Map()
  // Each sample is attributed the time until the next one.
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index + 1] ?? 0
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta)
  })
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0)
  const functions = new Map()
  const places = new Map()
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id)
    const name = callFrame.functionName || '(anonymous)'
    const place = placeOf(callFrame.url, name)
    const key = `${name} ${place}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`
    functions.set(key, (functions.get(key) ?? 0) + us)
    places.set(place, (places.get(place) ?? 0) + us)
  }
  const ranked = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / totalUs }))
  return { file: files.at(-1), totalMs: totalUs / 1000, functions: ranked(functions), places: ranked(places) }
}

/** The `top` places and functions, with their share of the profile's time. */
export function printCpuProfile({ file, totalMs, functions, places }, top = 15) {
  console.log(`\nCPU profile ${file}: ${(totalMs / 1000).toFixed(1)} s sampled; self time by place, then by function`)
  const columns = [
    { key: 'name', label: 'where', align: 'left' },
    { key: 'ms', label: 'self ms', align: 'right' },
    { key: 'share', label: 'share', align: 'right' },
  ]
  const rows = (list) => list.slice(0, top).map((r) => ({ name: r.name, ms: r.ms.toFixed(0), share: `${(r.share * 100).toFixed(1)} %` }))
  printTable(rows(places), columns)
  console.log('')
  printTable(rows(functions), columns)
}

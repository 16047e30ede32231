import { describe, expect, it } from 'vitest'
import { LevelReadCache } from '@/server/api/levels/cache'
import type { PublishedEvent } from '@/server/events/bus'
import { reconnectDelay } from '@/client/lib/live'

const levelsChanged: PublishedEvent = { id: 1, type: 'levels', data: { action: 'update', id: 1 } }
const someoneElse: PublishedEvent = { id: 2, type: 'account', userId: 'u', data: { reason: 'profile' } }

/** A load that resolves when told to, counting its calls. */
function loads() {
  const pending: ((value: unknown) => void)[] = []
  const load = () => new Promise<unknown>((resolve) => pending.push(resolve))
  return { load, pending }
}

describe('the cache of public level reads', () => {
  it('answers the same key from memory, with the same entity tag, until a level changes', async () => {
    const cache = new LevelReadCache()
    let calls = 0
    const load = () => Promise.resolve({ items: [], calls: ++calls })
    const first = await cache.read('list', load)
    expect(await cache.read('list', load)).toBe(first)
    cache.event(someoneElse)
    expect(await cache.read('list', load)).toBe(first)
    cache.event(levelsChanged)
    const second = await cache.read('list', load)
    expect(second.body).toBe('{"items":[],"calls":2}')
    expect(second.etag).not.toBe(first.etag)
  })

  it('shares one read between the requests of one moment, and never keeps one started before a change', async () => {
    const cache = new LevelReadCache()
    const { load, pending } = loads()
    const before = cache.read('list', load)
    const joined = cache.read('list', load)
    expect(pending).toHaveLength(1)
    cache.event(levelsChanged)
    // Asked after the change: a read of its own, not the one started before it.
    const after = cache.read('list', load)
    expect(pending).toHaveLength(2)
    pending[0]?.('old')
    pending[1]?.('new')
    expect((await before).body).toBe('"old"')
    expect(await joined).toBe(await before)
    expect((await after).body).toBe('"new"')
    expect((await cache.read('list', load)).body).toBe('"new"')
  })

  it('keeps nothing while the events cannot be heard, and nothing from before they were lost', async () => {
    const cache = new LevelReadCache()
    let calls = 0
    const load = () => Promise.resolve(++calls)
    await cache.read('list', load)
    cache.lost()
    expect((await cache.read('list', load)).body).toBe('2')
    expect((await cache.read('list', load)).body).toBe('3')
    cache.resumed()
    expect((await cache.read('list', load)).body).toBe('4')
    expect((await cache.read('list', load)).body).toBe('4')
  })

  it('does not keep a failed read', async () => {
    const cache = new LevelReadCache()
    await expect(cache.read('list', () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect((await cache.read('list', () => Promise.resolve(1))).body).toBe('1')
  })
})

describe('reconnecting to the live stream', () => {
  it('waits between half and all of a delay that doubles from 0.5 s up to 30 s', () => {
    expect(reconnectDelay(0, () => 0)).toBe(250)
    expect(reconnectDelay(0, () => 1)).toBe(500)
    expect(reconnectDelay(3, () => 0.5)).toBe(3000)
    expect(reconnectDelay(20, () => 1)).toBe(30_000)
    expect(reconnectDelay(20, () => 0)).toBe(15_000)
  })
})

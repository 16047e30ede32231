import { describe, expect, it } from 'vitest'
import { LruCache } from '@/shared/lru'

describe('a cache of values made from strings that come from outside', () => {
  it('keeps at most its capacity, however many distinct keys come', () => {
    const cache = new LruCache<string, number>(8)
    let made = 0
    for (let i = 0; i < 10_000; i++) cache.get(`key ${i}`, () => made++)
    expect(made).toBe(10_000)
    expect(cache.size).toBe(8)
  })

  it('makes a value once while it is kept, and drops the one used least recently', () => {
    const cache = new LruCache<string, string>(2)
    const make = (key: string) => `${key}!`
    expect(cache.get('a', make)).toBe('a!')
    cache.get('b', make)
    // 'a' used again: 'b' is now the least recently used, and goes when 'c' comes.
    expect(cache.get('a', () => 'made again')).toBe('a!')
    cache.get('c', make)
    expect(cache.get('a', () => 'made again')).toBe('a!')
    expect(cache.get('b', () => 'made again')).toBe('made again')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel, LevelPage, LevelUsage } from '@/shared/levels'
import type { LearnerProfile } from '@/shared/profile'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { databaseTargets } from '../helpers/database'
import { allLevels, createLevel } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

const cefr = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2']

/** Positions are 0..n-1 in the list's order. */
function expectContiguous(levels: LanguageLevel[]) {
  expect(levels.map((level) => level.position)).toEqual(levels.map((_, index) => index))
}

describe.each(databaseTargets())('language levels on %s', (target) => {
  let world: AdminWorld
  beforeAll(async () => {
    world = await startAdminWorld(target, 'levels')
  })
  afterAll(async () => {
    await world.stop()
  })

  const list = (query: string) => world.visitor.request('GET', `/api/language-levels${query}`)
  const page = async (query: string) => expectJson<LevelPage>(await list(query))
  const codesOf = (levels: LanguageLevel[]) => levels.map((level) => level.code)

  // First: these see only the seeded levels.
  describe('the public list', () => {
    it('answers the six CEFR levels in order to everyone, revalidated by caches', async () => {
      for (const client of [world.visitor, world.learner, world.admin]) {
        const response = await client.request('GET', '/api/language-levels')
        expect(response.headers.get('cache-control')).toBe('no-cache')
        const body = await expectJson<LevelPage>(response)
        expect(body).toMatchObject({ total: 6, page: 1, pageSize: 20 })
        expect(codesOf(body.items)).toEqual(cefr)
        expectContiguous(body.items)
        expect(body.items[0]).toMatchObject({ name: 'Beginner', version: 1, createdBy: null })
        expect(Object.keys(body.items[0] ?? {}).sort()).toEqual(
          ['code', 'createdAt', 'createdBy', 'description', 'id', 'name', 'position', 'updatedAt', 'updatedBy', 'version'],
        )
      }
    })

    it('searches code, name and description, ignoring case', async () => {
      expect(codesOf((await page('?q=b1')).items)).toEqual(['B1'])
      // "Intermediate" and "Upper intermediate"; A1's description says "interact".
      expect(codesOf((await page('?q=INTERMEDIATE')).items)).toEqual(['B1', 'B2'])
      expect(codesOf((await page('?q=%20%20ease%20')).items)).toEqual(['C2'])
      expect(await page('?q=nothing-like-this')).toMatchObject({ items: [], total: 0 })
      // Empty after trimming: no filter.
      expect((await page('?q=%20%20')).total).toBe(6)
    })

    it('sorts by each key both ways, ties broken by id', async () => {
      const levels = (await page('')).items
      const byId = (a: LanguageLevel, b: LanguageLevel) => a.id - b.id
      const orders: Record<string, (a: LanguageLevel, b: LanguageLevel) => number> = {
        position: (a, b) => a.position - b.position,
        code: (a, b) => a.code.toLowerCase().localeCompare(b.code.toLowerCase()),
        name: (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
        updatedAt: (a, b) => a.updatedAt.localeCompare(b.updatedAt),
      }
      for (const [key, compare] of Object.entries(orders)) {
        const ascending = [...levels].sort((a, b) => compare(a, b) || byId(a, b))
        const descending = [...levels].sort((a, b) => compare(b, a) || byId(a, b))
        expect(codesOf((await page(`?sort=${key}`)).items), key).toEqual(codesOf(ascending))
        expect(codesOf((await page(`?sort=-${key}`)).items), `-${key}`).toEqual(codesOf(descending))
      }
      // The seeded levels share their updatedAt: the id decides, ascending either way.
      expect(codesOf((await page('?sort=-updatedAt')).items)).toEqual(cefr)
    })

    it('pages', async () => {
      expect(await page('?page=2&pageSize=4')).toMatchObject({ total: 6, page: 2, pageSize: 4 })
      expect(codesOf((await page('?page=2&pageSize=4')).items)).toEqual(['C1', 'C2'])
      expect(codesOf((await page('?page=3&pageSize=2&sort=-code')).items)).toEqual(['A2', 'A1'])
      expect(await page('?page=9&pageSize=1')).toMatchObject({ items: [], total: 6, page: 9 })
      expect((await page('?pageSize=100')).items).toHaveLength(6)
      expect((await page('?pageSize=1')).items).toHaveLength(1)
    })

    it.each([
      ['pageSize=101', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=-1', 'pageSize'],
      ['pageSize=1.5', 'pageSize'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=100001', 'page'],
      ['sort=id', 'sort'],
      ['sort=--code', 'sort'],
      [`q=${'x'.repeat(101)}`, 'q'],
    ])('refuses ?%s with a field error', async (query, field) => {
      const error = await expectApiError(await list(`?${query}`), 400, 'validation_failed')
      expect(Object.keys(error.fields ?? {})).toEqual([field])
    })

    it('accepts a search of 100 characters', async () => {
      expect((await page(`?q=${'x'.repeat(100)}`)).total).toBe(0)
    })
  })

  describe('who may do what', () => {
    const adminCalls: [string, string, unknown?][] = [
      ['POST', '/api/language-levels', { code: 'Z9', name: 'Zed' }],
      ['PATCH', '/api/language-levels/1', { name: 'Beginner', version: 1 }],
      ['DELETE', '/api/language-levels/1'],
      ['PUT', '/api/language-levels/order', { ids: [1, 2, 3, 4, 5, 6] }],
      ['GET', '/api/language-levels/1/usage'],
    ]

    it.each(adminCalls)('%s %s: 401 for a visitor, 403 for a learner', async (method, path, body) => {
      await expectApiError(await world.visitor.request(method, path, body), 401, 'unauthenticated')
      const refused = await expectApiError(await world.learner.request(method, path, body), 403, 'forbidden')
      expect(refused.message).toBe('Administrators only.')
    })

    it('checks the permission before the body and the id', async () => {
      await expectApiError(await world.visitor.request('POST', '/api/language-levels', {}), 401, 'unauthenticated')
      await expectApiError(await world.learner.request('PATCH', '/api/language-levels/abc', {}), 403, 'forbidden')
    })

    it('leaves the levels as they were after the refused calls', async () => {
      const levels = await allLevels(world.admin)
      expect(codesOf(levels)).toEqual(cefr)
      expect(levels.every((level) => level.version === 1)).toBe(true)
    })

    it('lets everyone read one level', async () => {
      for (const client of [world.visitor, world.learner, world.admin]) {
        const response = await client.request('GET', '/api/language-levels/3')
        expect(response.headers.get('cache-control')).toBe('no-cache')
        expect(await expectJson<LanguageLevel>(response)).toMatchObject({ id: 3, code: 'B1', position: 2 })
      }
    })

    it.each(['999999', '2147483647', '2147483648', '99999999999', '0', '-1', '1.5', '01', 'abc', '1e3'])(
      'answers /api/language-levels/%s with 404 "Language level not found"',
      async (id) => {
        const error = await expectApiError(await list(`/${id}`), 404, 'not_found')
        expect(error.message).toBe('Language level not found')
      },
    )
  })

  describe('an administrator', () => {
    it('creates a level at the end, with Location, and reads it back', async () => {
      const response = await world.admin.request('POST', '/api/language-levels', {
        code: '  C2+ ',
        name: '  Mastery plus ',
        description: ' Beyond C2. ',
      })
      expect(response.headers.get('cache-control')).toBe('no-store')
      const level = await expectJson<LanguageLevel>(response, 201)
      expect(response.headers.get('location')).toBe(`/api/language-levels/${level.id}`)
      const me = (await (await world.admin.request('GET', '/api/me')).json()) as { user: { id: string } }
      expect(level).toMatchObject({
        code: 'C2+',
        name: 'Mastery plus',
        description: 'Beyond C2.',
        position: 6,
        version: 1,
        createdBy: me.user.id,
        updatedBy: me.user.id,
      })
      expect(level.createdAt).toBe(level.updatedAt)
      expect(await expectJson<LanguageLevel>(await list(`/${level.id}`))).toEqual(level)
      expectContiguous(await allLevels(world.visitor))
    })

    it('edits a level with the version it read; a stale version is refused with 409', async () => {
      const level = await createLevel(world.admin, { code: 'EDIT1', description: 'First words.' })
      const edited = await expectJson<LanguageLevel>(
        await world.admin.request('PATCH', `/api/language-levels/${level.id}`, { name: 'Renamed', version: 1 }),
      )
      expect(edited).toMatchObject({ code: 'EDIT1', name: 'Renamed', description: 'First words.', version: 2, position: level.position })
      expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(level.updatedAt))
      expect(edited.createdAt).toBe(level.createdAt)

      const stale = await world.admin.request('PATCH', `/api/language-levels/${level.id}`, { name: 'Lost', version: 1 })
      const error = await expectApiError(stale, 409, 'conflict')
      expect(error.message).toBe('This level was changed by someone else.')
      expect(await expectJson<LanguageLevel>(await list(`/${level.id}`))).toEqual(edited)

      // Only the version: nothing else changes, but the version moves on.
      const touched = await expectJson<LanguageLevel>(
        await world.admin.request('PATCH', `/api/language-levels/${level.id}`, { version: 2 }),
      )
      expect(touched).toMatchObject({ name: 'Renamed', version: 3 })
    })

    it('deletes a level (204), which then answers 404 to every call', async () => {
      const level = await createLevel(world.admin, { code: 'GONE1' })
      const response = await world.admin.request('DELETE', `/api/language-levels/${level.id}`)
      expect(response.status).toBe(204)
      expect(await response.text()).toBe('')
      const path = `/api/language-levels/${level.id}`
      await expectApiError(await list(`/${level.id}`), 404, 'not_found')
      await expectApiError(await world.admin.request('DELETE', path), 404, 'not_found')
      await expectApiError(await world.admin.request('PATCH', path, { name: 'Back', version: 1 }), 404, 'not_found')
      await expectApiError(await world.admin.request('GET', `${path}/usage`), 404, 'not_found')
      expectContiguous(await allLevels(world.visitor))
    })
  })

  describe('validation', () => {
    const create = (body: unknown) => world.admin.request('POST', '/api/language-levels', body)
    let counter = 0
    /** A code no other test uses, of `length` characters. */
    const freshCode = (length = 6) => `V${String(++counter).padStart(length - 1, '0')}`

    it.each([
      ['an empty code', { code: '', name: 'Name' }, 'code'],
      ['a blank code', { code: '   ', name: 'Name' }, 'code'],
      ['a code of 17 characters', { code: 'X'.repeat(17), name: 'Name' }, 'code'],
      ['a code with a space inside', { code: 'B 2', name: 'Name' }, 'code'],
      ['a code with other punctuation', { code: 'B2!', name: 'Name' }, 'code'],
      ['a code that is not a string', { code: 12, name: 'Name' }, 'code'],
      ['no code', { name: 'Name' }, 'code'],
      ['an empty name', { code: 'OK1', name: '' }, 'name'],
      ['a blank name', { code: 'OK1', name: ' \t ' }, 'name'],
      ['a name of 101 characters', { code: 'OK1', name: 'n'.repeat(101) }, 'name'],
      ['no name', { code: 'OK1' }, 'name'],
      ['a description of 2001 characters', { code: 'OK1', name: 'Name', description: 'd'.repeat(2001) }, 'description'],
      ['a null description', { code: 'OK1', name: 'Name', description: null }, 'description'],
    ])('refuses %s (400 on the field) and creates nothing', async (_, body, field) => {
      const before = (await page('')).total
      const error = await expectApiError(await create(body), 400, 'validation_failed')
      expect(Object.keys(error.fields ?? {})).toEqual([field])
      expect((await page('')).total).toBe(before)
    })

    it('accepts each field at its bounds, trimmed', async () => {
      const longest = await createLevel(world.admin, {
        code: `  ${'L'.repeat(15)}1  `,
        name: ` ${'n'.repeat(100)} `,
        description: ` ${'d'.repeat(2000)}\n`,
      })
      expect(longest.code).toBe(`${'L'.repeat(15)}1`)
      expect(longest.name).toHaveLength(100)
      expect(longest.description).toHaveLength(2000)

      const shortest = await createLevel(world.admin, { code: '7', name: 'x' })
      expect(shortest).toMatchObject({ code: '7', name: 'x', description: '' })
      const blank = await createLevel(world.admin, { code: freshCode(), name: 'Blank', description: '   ' })
      expect(blank.description).toBe('')
    })

    it('accepts letters of any script and the characters + . _ - in codes', async () => {
      for (const code of ['Б2', 'Ü1', 'ñ-1', 'ア1', 'B2.1_a+']) {
        expect((await createLevel(world.admin, { code, name: 'Продвинутый — ü' })).code).toBe(code)
      }
      expect(codesOf((await page('?q=ПРОДВИНУТЫЙ')).items)).toEqual(['Б2', 'Ü1', 'ñ-1', 'ア1', 'B2.1_a+'])
    })

    it('takes % and _ in a search literally', async () => {
      await createLevel(world.admin, { code: freshCode(), name: '100% sure' })
      await createLevel(world.admin, { code: freshCode(), name: 'snake_case' })
      await createLevel(world.admin, { code: freshCode(), name: 'one case' })
      expect((await page('?q=%25')).items.map((level) => level.name)).toEqual(['100% sure'])
      // As a wildcard, `_` would match the space of "one case" too.
      expect((await page('?q=e_c')).items.map((level) => level.name)).toEqual(['snake_case'])
      expect((await page('?q=%5C')).total).toBe(0)
    })

    it.each([
      ['no version', { name: 'x' }, 'version'],
      ['version 0', { version: 0 }, 'version'],
      ['a fractional version', { version: 1.5 }, 'version'],
      ['a version as text', { version: '1' }, 'version'],
      ['an empty name', { name: '', version: 1 }, 'name'],
      ['a code of 17 characters', { code: 'Y'.repeat(17), version: 1 }, 'code'],
      ['a description of 2001 characters', { description: 'd'.repeat(2001), version: 1 }, 'description'],
    ])('refuses a change with %s', async (_, body, field) => {
      const error = await expectApiError(await world.admin.request('PATCH', '/api/language-levels/2', body), 400, 'validation_failed')
      expect(Object.keys(error.fields ?? {})).toEqual([field])
    })
  })

  describe('codes are unique ignoring case', () => {
    it('refuses a duplicate code on create and on edit with 409 on the code field', async () => {
      const error = await expectApiError(
        await world.admin.request('POST', '/api/language-levels', { code: 'b2', name: 'Again' }),
        409,
        'conflict',
      )
      expect(error.fields?.code).toHaveLength(1)
      const level = await createLevel(world.admin, { code: 'DUP1' })
      const edit = await world.admin.request('PATCH', `/api/language-levels/${level.id}`, { code: 'a1', version: 1 })
      expect((await expectApiError(edit, 409, 'conflict')).fields?.code).toHaveLength(1)
      // Its own code in another case is no conflict.
      const recased = await world.admin.request('PATCH', `/api/language-levels/${level.id}`, { code: 'dup1', version: 1 })
      expect(await expectJson<LanguageLevel>(recased)).toMatchObject({ code: 'dup1', version: 2 })
    })

    it('creates one level of 16 parallel creates of one code in different cases; the rest get 409', async () => {
      const codes = Array.from({ length: 16 }, (_, i) =>
        [...'race'].map((letter, j) => ((i >> j) & 1 ? letter.toUpperCase() : letter)).join(''),
      )
      const responses = await Promise.all(
        codes.map((code) => world.admin.request('POST', '/api/language-levels', { code, name: 'Race' })),
      )
      const statuses = responses.map((response) => response.status)
      expect(statuses.filter((status) => status === 201)).toHaveLength(1)
      for (const response of responses.filter((r) => r.status !== 201)) {
        expect((await expectApiError(response, 409, 'conflict')).fields?.code).toHaveLength(1)
      }
      expect((await page('?q=race')).total).toBe(1)
      expectContiguous(await allLevels(world.visitor))
    })

    it('keeps positions contiguous under parallel creates of different codes', async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          world.admin.request('POST', '/api/language-levels', { code: `PAR${i}`, name: 'Parallel' }),
        ),
      )
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201))
      expectContiguous(await allLevels(world.visitor))
    })
  })

  it('accepts exactly one of 50 parallel edits of one version; the others get 409', async () => {
    const level = await createLevel(world.admin, { code: 'RACE50' })
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        world.admin.request('PATCH', `/api/language-levels/${level.id}`, { name: `Edit ${i}`, version: 1 }),
      ),
    )
    const winners = responses.filter((response) => response.status === 200)
    expect(winners).toHaveLength(1)
    for (const response of responses.filter((r) => r.status !== 200)) {
      await expectApiError(response, 409, 'conflict')
    }
    const winner = await expectJson<LanguageLevel>(winners[0] as Response)
    const now = await expectJson<LanguageLevel>(await list(`/${level.id}`))
    expect(now).toEqual(winner)
    expect(now.version).toBe(2)
  })

  it('answers bursts of parallel edits, creates, deletes and reorders without a server error, positions contiguous', async () => {
    const request = (method: string, path: string, body?: unknown) =>
      world.admin.request(method, path, body).then((response) => response.status)
    const edit = (level: LanguageLevel) =>
      request('PATCH', `/api/language-levels/${level.id}`, { description: 'Burst.', version: level.version })
    // A few rounds: the interleavings differ from one to the next.
    for (let round = 0; round < 3; round++) {
      const fresh: LanguageLevel[] = []
      for (let i = 0; i < 6; i++) fresh.push(await createLevel(world.admin, { code: `MIX${round}-${i}` }))
      const [kept, doomed] = [fresh.slice(0, 3), fresh.slice(3)]
      const ids = (await allLevels(world.admin)).map((level) => level.id)
      const [edits, doomedEdits, creates, deletes, reorders] = await Promise.all([
        Promise.all(kept.map(edit)),
        // Edits racing the deletes of their levels: either may come first.
        Promise.all(doomed.map(edit)),
        Promise.all([1, 2].map((i) => request('POST', '/api/language-levels', { code: `BURST${round}-${i}`, name: 'Burst' }))),
        Promise.all(doomed.map((level) => request('DELETE', `/api/language-levels/${level.id}`))),
        // Those that run after a create or delete find another set of levels: 409.
        Promise.all([ids, [...ids].reverse(), ids].map((order) => request('PUT', '/api/language-levels/order', { ids: order }))),
      ])
      expect(edits).toEqual([200, 200, 200])
      for (const status of doomedEdits) expect([200, 404]).toContain(status)
      expect(creates).toEqual([201, 201])
      expect(deletes).toEqual([204, 204, 204])
      for (const status of reorders) expect([200, 409]).toContain(status)
      expectContiguous(await allLevels(world.visitor))
    }
  })

  describe('the order', () => {
    const reorder = (ids: unknown) => world.admin.request('PUT', '/api/language-levels/order', { ids })

    it('puts the levels in the given order and answers them so', async () => {
      const ids = (await allLevels(world.admin)).map((level) => level.id)
      const wanted = [...ids].reverse()
      const response = await reorder(wanted)
      expect(response.headers.get('cache-control')).toBe('no-store')
      const answered = await expectJson<LanguageLevel[]>(response)
      expect(answered.map((level) => level.id)).toEqual(wanted)
      expectContiguous(answered)
      const now = await allLevels(world.visitor)
      expect(now).toEqual(answered)
      // Moving levels is not an edit: their versions stay.
      expect(now.find((level) => level.code === 'A1')?.version).toBe(1)
    })

    it('refuses an order that misses a level, names an unknown one, or one twice', async () => {
      const ids = (await allLevels(world.admin)).map((level) => level.id)
      const missing = await expectApiError(await reorder(ids.slice(1)), 409, 'conflict')
      expect(missing.message).toBe('The levels changed; reload and try again.')
      await expectApiError(await reorder([...ids, 999_999]), 409, 'conflict')
      await expectApiError(await reorder([...ids.slice(1), 999_999]), 409, 'conflict')
      const twice = await expectApiError(await reorder([...ids, ids[0]]), 400, 'validation_failed')
      expect(Object.keys(twice.fields ?? {})).toEqual(['ids'])
      for (const bad of [undefined, 'all', [0], [1.5], ['1']]) {
        await expectApiError(await reorder(bad), 400, 'validation_failed')
      }
      expect((await allLevels(world.admin)).map((level) => level.id)).toEqual(ids)
    })

    it('stays contiguous, in the same relative order, after deletes', async () => {
      const before = await allLevels(world.admin)
      const doomed = [before[0], before[3], before.at(-1)].map((level) => level?.id)
      for (const id of doomed) {
        expect((await world.admin.request('DELETE', `/api/language-levels/${id}`)).status).toBe(204)
      }
      const after = await allLevels(world.visitor)
      expectContiguous(after)
      expect(after.map((level) => level.id)).toEqual(
        before.map((level) => level.id).filter((id) => !doomed.includes(id)),
      )
    })

    it('puts a new level after the reordered ones', async () => {
      const level = await createLevel(world.admin, { code: 'LAST1' })
      const levels = await allLevels(world.visitor)
      expect(levels.at(-1)?.id).toBe(level.id)
      expectContiguous(levels)
    })
  })

  it('counts the learners of a level, and deleting it clears it from their profiles', async () => {
    const current = await createLevel(world.admin, { code: 'USE1' })
    const goal = await createLevel(world.admin, { code: 'USE2' })
    const usage = (id: number) =>
      world.admin.request('GET', `/api/language-levels/${id}/usage`).then((r) => expectJson<LevelUsage>(r))
    expect(await usage(current.id)).toEqual({ learners: 0, statements: 0, words: 0 })
    // The words that go with it are counted too (deleted with the level).
    for (const text of ['usage', 'count']) {
      const input = { language: 'en', text, translationEn: text, translationRu: text }
      expect((await world.admin.request('POST', `/api/language-levels/${current.id}/words`, input)).status).toBe(201)
    }

    const saved = { language: 'de', currentLevelId: current.id, targetLevelId: goal.id }
    await expectJson(await world.learner.request('PUT', '/api/me/profile', saved))
    const other = await world.signUp(`other-learner-${target}@example.com`)
    await expectJson(await other.request('PUT', '/api/me/profile', { ...saved, currentLevelId: null }))
    // One learner has it as current level, both as target.
    expect(await usage(current.id)).toEqual({ learners: 1, statements: 0, words: 2 })
    expect(await usage(goal.id)).toEqual({ learners: 2, statements: 0, words: 0 })
    const response = await world.admin.request('GET', `/api/language-levels/${current.id}/usage`)
    expect(response.headers.get('cache-control')).toBe('no-store')

    expect((await world.admin.request('DELETE', `/api/language-levels/${current.id}`)).status).toBe(204)
    const profile = await expectJson<LearnerProfile>(await world.learner.request('GET', '/api/me/profile'))
    expect(profile).toMatchObject({ language: 'de', currentLevelId: null, targetLevelId: goal.id })
    expect(await usage(goal.id)).toEqual({ learners: 2, statements: 0, words: 0 })
  })
})

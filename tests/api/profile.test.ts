import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import { LEARNABLE_LANGUAGES, type LearnerProfile } from '@/shared/profile'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

describe.each(databaseTargets())('the learner profile on %s', (target) => {
  let world: AdminWorld
  /** The seeded CEFR levels by code. */
  let level: Record<string, LanguageLevel>
  beforeAll(async () => {
    world = await startAdminWorld(target, 'profile')
    level = Object.fromEntries((await allLevels(world.visitor)).map((l) => [l.code, l]))
  })
  afterAll(async () => {
    await world.stop()
  })

  const idOf = (code: string) => level[code]?.id ?? 0
  const read = async (client: Client) => {
    const response = await client.request('GET', '/api/me/profile')
    expect(response.headers.get('cache-control')).toBe('no-store')
    return expectJson<LearnerProfile>(response)
  }
  const save = (client: Client, body: unknown) => client.request('PUT', '/api/me/profile', body)
  const valid = () => ({ language: 'fr', currentLevelId: idOf('A2'), targetLevelId: idOf('B2') })

  it('is for signed-in users only', async () => {
    await expectApiError(await world.visitor.request('GET', '/api/me/profile'), 401, 'unauthenticated')
    await expectApiError(await save(world.visitor, valid()), 401, 'unauthenticated')
  })

  it('is empty until first saved', async () => {
    expect(await read(world.learner)).toEqual({
      language: null,
      currentLevelId: null,
      targetLevelId: null,
      updatedAt: null,
    })
  })

  it('saves and answers the profile, and reads it back; each user has their own', async () => {
    const response = await save(world.learner, valid())
    expect(response.headers.get('cache-control')).toBe('no-store')
    const saved = await expectJson<LearnerProfile>(response)
    expect(saved).toMatchObject(valid())
    expect(Date.parse(saved.updatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    expect(await read(world.learner)).toEqual(saved)

    // An administrator is a learner too, with a profile of their own.
    expect((await read(world.admin)).language).toBeNull()

    const changed = await expectJson<LearnerProfile>(
      await save(world.learner, { language: 'ja', currentLevelId: null, targetLevelId: null }),
    )
    expect(changed).toMatchObject({ language: 'ja', currentLevelId: null, targetLevelId: null })
    expect(Date.parse(changed.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(saved.updatedAt ?? ''))
  })

  it('accepts every learnable language, and no other', async () => {
    for (const language of LEARNABLE_LANGUAGES) {
      expect((await expectJson<LearnerProfile>(await save(world.learner, { ...valid(), language }))).language).toBe(language)
    }
    for (const language of ['xx', 'EN', 'en-GB', 'eng', '', 3]) {
      const error = await expectApiError(await save(world.learner, { ...valid(), language }), 400, 'validation_failed')
      expect(Object.keys(error.fields ?? {})).toEqual(['language'])
    }
  })

  it.each([
    ['the same level', 'B1', 'B1'],
    ['a higher level', 'A1', 'C2'],
  ])('accepts a target at %s', async (_, current, goal) => {
    const body = { language: 'de', currentLevelId: idOf(current), targetLevelId: idOf(goal) }
    expect(await expectJson<LearnerProfile>(await save(world.learner, body))).toMatchObject(body)
  })

  it('accepts either level alone', async () => {
    for (const body of [
      { language: null, currentLevelId: idOf('C2'), targetLevelId: null },
      { language: null, currentLevelId: null, targetLevelId: idOf('A1') },
    ]) {
      expect(await expectJson<LearnerProfile>(await save(world.learner, body))).toMatchObject(body)
    }
  })

  it('refuses a target below the current level, on the target field, and keeps what was saved', async () => {
    const before = await read(world.learner)
    const body = { language: 'de', currentLevelId: idOf('B2'), targetLevelId: idOf('A2') }
    const error = await expectApiError(await save(world.learner, body), 400, 'validation_failed')
    expect(Object.keys(error.fields ?? {})).toEqual(['targetLevelId'])
    expect(await read(world.learner)).toEqual(before)
  })

  it('compares the levels by their order, which administrators may change', async () => {
    const ids = Object.values(level).map((l) => l.id)
    const reordered = await world.admin.request('PUT', '/api/language-levels/order', { ids: [...ids].reverse() })
    expect(reordered.status).toBe(200)
    try {
      const body = { language: 'de', currentLevelId: idOf('B2'), targetLevelId: idOf('A2') }
      expect(await expectJson<LearnerProfile>(await save(world.learner, body))).toMatchObject(body)
      const error = await expectApiError(
        await save(world.learner, { ...body, currentLevelId: idOf('A2'), targetLevelId: idOf('B2') }),
        400,
        'validation_failed',
      )
      expect(Object.keys(error.fields ?? {})).toEqual(['targetLevelId'])
    } finally {
      await world.admin.request('PUT', '/api/language-levels/order', { ids })
    }
  })

  it.each([
    ['currentLevelId', { currentLevelId: 999_999 }],
    ['targetLevelId', { targetLevelId: 999_999 }],
  ])('refuses an unknown level on %s', async (field, change) => {
    const error = await expectApiError(await save(world.learner, { ...valid(), ...change }), 400, 'validation_failed')
    expect(Object.keys(error.fields ?? {})).toEqual([field])
  })

  it.each([
    ['a missing field', { language: 'de', currentLevelId: null }, 'targetLevelId'],
    ['level id 0', { language: 'de', currentLevelId: 0, targetLevelId: null }, 'currentLevelId'],
    ['a negative level id', { language: 'de', currentLevelId: null, targetLevelId: -1 }, 'targetLevelId'],
    ['a fractional level id', { language: 'de', currentLevelId: 1.5, targetLevelId: null }, 'currentLevelId'],
    ['a level id as text', { language: 'de', currentLevelId: '1', targetLevelId: null }, 'currentLevelId'],
  ])('refuses %s', async (_, body, field) => {
    const error = await expectApiError(await save(world.learner, body), 400, 'validation_failed')
    expect(Object.keys(error.fields ?? {})).toEqual([field])
  })
})

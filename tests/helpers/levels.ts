import type { LanguageLevel, LevelPage } from '@/shared/levels'
import type { Client } from './auth-client'
import { expectJson } from './server'

/** Every level, in their order. */
export async function allLevels(client: Client): Promise<LanguageLevel[]> {
  const page = await expectJson<LevelPage>(
    await client.request('GET', '/api/language-levels?pageSize=100&sort=position'),
  )
  return page.items
}

/** Creates a level as `admin` (an administrator's client); fails the test if it is refused. */
export async function createLevel(
  admin: Client,
  input: { code: string; name?: string; description?: string },
): Promise<LanguageLevel> {
  const response = await admin.request('POST', '/api/language-levels', {
    name: `Level ${input.code}`,
    ...input,
  })
  return expectJson<LanguageLevel>(response, 201)
}

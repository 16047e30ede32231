import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { BrowserContext, Page } from '@playwright/test'
import type { ImportJob } from '@/shared/imports'
import type { MemoryModelState } from '@/shared/memory-model'
import { historyPackage } from '../helpers/review-history'
import { signedInAs } from './helpers/accounts'
import { middayZone } from './helpers/clock'
import { expect, mainHeading, test } from './helpers/fixtures'

// A memory model of one's own (docs/product.md §13, docs/decisions/0037-memory-model.md): the
// "Memory model" card on /progress before there are enough reviews ("Personalise now" disabled,
// and why), then after an Anki history of 622 reviews is imported ("Personalised from 622 reviews",
// the log loss of the default and of the learner's model, "Personalise now" again); the "Desired
// retention" field under "Practice" on /account, with the reviews a day each retention costs,
// saved as it is chosen (the routes place MemoryModelCard and RetentionField on those pages).

test.use({ timezoneId: middayZone })

let folder: string
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-e2e-memory-model-'))
})
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

async function learner(context: BrowserContext, baseURL: string, name: string) {
  await signedInAs(context, baseURL, name)
  const settings = await context.request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { newWordsPerDay: 10, dailyGoal: 20, timeZone: middayZone },
  })
  expect(settings.status(), await settings.text()).toBe(200)
}

/** The learner's history imported through the API, waited for; the import queues the first fit. */
async function importHistory(context: BrowserContext, baseURL: string): Promise<number> {
  const { file, reviews } = await historyPackage(folder, 150, new Date())
  const started = await context.request.post('/api/me/imports', {
    headers: { Origin: baseURL },
    multipart: { file: { name: 'history.apkg', mimeType: 'application/octet-stream', buffer: await readFile(file) } },
  })
  expect(started.status(), await started.text()).toBe(202)
  const { id } = (await started.json()) as { id: string }
  await expect
    .poll(async () => ((await (await context.request.get(`/api/me/imports/${id}`)).json()) as ImportJob).status, { timeout: 30_000 })
    .toBe('done')
  return reviews
}

const memoryModel = (page: Page) => page.getByRole('main').getByRole('region', { name: 'Memory model', exact: true })

test('before 400 reviews the default model is used, and "Personalise now" says why it cannot run', async ({ page, context, baseURL }) => {
  await learner(context, baseURL ?? '', 'Model Newcomer')
  await page.goto('/progress')
  await expect(mainHeading(page)).toHaveText('Your progress')
  const card = memoryModel(page)
  await expect(card.getByText('The default memory model, the same for every learner.')).toBeVisible()
  await expect(card.getByText('400 more reviews and it can be fitted to you.')).toBeVisible()
  const button = card.getByRole('button', { name: 'Personalise now' })
  await expect(button).toBeDisabled()
  await expect(button).toHaveAccessibleDescription('Needs at least 400 reviews; you have 0.')
})

test('an imported history personalises the model; the desired retention shows what it costs and is saved as chosen', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000)
  await learner(context, baseURL ?? '', 'Model Learner')
  const reviews = await importHistory(context, baseURL ?? '')

  await page.goto('/progress')
  const card = memoryModel(page)
  // Fitted in the background; the page hears when it ends.
  await expect(card.getByText(`Personalised from ${reviews} reviews`)).toBeVisible({ timeout: 30_000 })
  const state = (await (await context.request.get('/api/me/practice/memory-model')).json()) as MemoryModelState
  const { logLossBefore, logLossAfter } = state.model ?? { logLossBefore: 0, logLossAfter: 0 }
  expect(logLossAfter).toBeLessThan(logLossBefore)
  await expect(card.getByText(`log loss ${logLossBefore.toFixed(3)} → ${logLossAfter.toFixed(3)}`)).toBeVisible()
  // Again on request: nothing new since, so the same model.
  await card.getByRole('button', { name: 'Personalise now' }).click()
  await expect(page.getByText('Your memory model is being personalised', { exact: true })).toBeVisible()
  await expect(card.getByText(`Personalised from ${reviews} reviews`)).toBeVisible({ timeout: 30_000 })
  await expect(card.getByRole('button', { name: 'Personalise now' })).toBeEnabled({ timeout: 30_000 })

  await page.goto('/account')
  const retention = page.getByRole('combobox', { name: 'Desired retention' })
  await expect(retention).toHaveValue('0.9')
  const perDay = (retentionValue: number) => state.estimates.find((estimate) => estimate.retention === retentionValue)?.reviewsPerDay ?? -1
  await expect(retention).toHaveAccessibleDescription(new RegExp(`^≈ ${perDay(0.9)} reviews? a day\\.`))
  await expect(retention.getByRole('option', { name: `0.85 (≈ ${perDay(0.85)} reviews a day)` })).toBeAttached()
  await retention.selectOption('0.85')
  await expect(page.getByText('Desired retention saved', { exact: true })).toBeVisible()
  await expect(retention).toHaveAccessibleDescription(new RegExp(`^≈ ${perDay(0.85)} reviews? a day\\.`))
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Desired retention' })).toHaveValue('0.85')
  const saved = (await (await context.request.get('/api/me/practice/settings')).json()) as { desiredRetention: number; dailyGoal: number }
  expect(saved).toMatchObject({ desiredRetention: 0.85, dailyGoal: 20 })
})

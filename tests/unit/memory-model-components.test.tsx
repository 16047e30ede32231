import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { MemoryModelState } from '@/shared/memory-model'
import type { PracticeSettings } from '@/shared/practice'
import { practiceKeys } from '@/client/api/practice-progress'
import { memoryModelKey } from '@/client/features/memory-model/api'
import { MemoryModelCard } from '@/client/features/memory-model/memory-model-card'
import { RetentionField } from '@/client/features/memory-model/retention-field'

/**
 * The memory model's components as the server renders them (no DOM here), from the answers the
 * API gives: what the learner reads in each state. Their behaviour in the browser (saving,
 * "Personalise now") is tests/e2e/memory-model.spec.ts.
 */

const estimates = [
  { retention: 0.8, reviewsPerDay: 4.2 },
  { retention: 0.85, reviewsPerDay: 5.5 },
  { retention: 0.9, reviewsPerDay: 8 },
  { retention: 0.95, reviewsPerDay: 15.1 },
  { retention: 0.97, reviewsPerDay: 24.6 },
]
const fresh: MemoryModelState = { status: 'default', reviews: 120, minReviews: 400, model: null, desiredRetention: 0.9, estimates }
const settings: PracticeSettings = {
  newWordsPerDay: 10,
  dailyGoal: 20,
  timeZone: 'UTC',
  ways: ['flashcard'],
  reminderEnabled: false,
  reminderHour: 18,
  desiredRetention: 0.9,
}

/** The markup, with the API's answers in the query cache. */
function markup(node: ReactNode, state: MemoryModelState): string {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  client.setQueryData(memoryModelKey, state)
  client.setQueryData(practiceKeys.settings, settings)
  return renderToString(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}

/** The text only, as read: the tags and the comments React leaves between texts gone. */
function render(node: ReactNode, state: MemoryModelState): string {
  return markup(node, state)
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
}

describe('the memory model card', () => {
  it('says the default model is used and how many reviews are still needed; "Personalise now" is disabled with why', () => {
    const html = markup(<MemoryModelCard />, fresh)
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-describedby="([^"]+)"[^>]*>Personalise now<\/button>/)
    const text = render(<MemoryModelCard />, fresh)
    expect(text).toContain('The default memory model, the same for every learner.')
    expect(text).toContain('280 more reviews and it can be fitted to you.')
    expect(text).toContain('Needs at least 400 reviews; you have 120.')
  })

  it('shows a personalised model: from how many reviews, and its log loss against the default’s to 3 decimals', () => {
    const model = { reviews: 1234, logLossBefore: 0.41234, logLossAfter: 0.38, fittedAt: '2026-03-01T09:00:00.000Z' }
    const text = render(<MemoryModelCard />, { ...fresh, status: 'personalised', reviews: 1300, model })
    expect(text).toContain('Personalised from 1,234 reviews')
    expect(text).toContain('log loss 0.412 → 0.380')
    expect(text).toContain('Personalise now')
    expect(text).not.toContain('Needs at least')
  })

  it('says when a fit waits or runs', () => {
    expect(render(<MemoryModelCard />, { ...fresh, reviews: 500, status: 'queued' })).toContain('Waiting to be personalised…')
    expect(render(<MemoryModelCard />, { ...fresh, reviews: 500, status: 'running' })).toContain('Personalising your memory model…')
  })
})

describe('the desired retention field', () => {
  it('offers 0.80 to 0.97 with the reviews a day each costs where estimated, the current one chosen', () => {
    const html = markup(<RetentionField />, fresh)
    const options = [...html.matchAll(/<option value="([^"]*)"( selected="")?>([^<]*)<\/option>/g)]
    expect(options.map((option) => option[1])).toEqual(Array.from({ length: 18 }, (_, i) => String((80 + i) / 100)))
    expect(options.find((option) => option[2])?.[1]).toBe('0.9')
    expect(options.find((option) => option[1] === '0.97')?.[3]).toBe('0.97 (≈ 24.6 reviews a day)')
    expect(options.find((option) => option[1] === '0.81')?.[3]).toBe('0.81')
    const text = render(<RetentionField />, fresh)
    expect(text).toContain('Desired retention')
    expect(text).toContain('≈ 8 reviews a day.')
  })
})

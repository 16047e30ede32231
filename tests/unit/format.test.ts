import { describe, expect, it } from 'vitest'
import { levelsAdminMessages } from '@/client/features/admin/levels/messages'
import { dashboardMessages } from '@/client/features/dashboard/messages'
import { formatNumber, plural, pluralForm } from '@/client/lib/format'
import { formatDateTime, formatRelativeTime } from '@/client/lib/format-time'
import { apiErrorMessages, validationMessages } from '@/client/lib/messages'
import { messagesIn } from './messages-in'

// Intl writes a no-break space (U+00A0) or a narrow one (U+202F) where a space is read.
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('plural forms', () => {
  const learners = { one: 'учащийся', few: 'учащихся', many: 'учащихся', other: 'учащегося' }

  it.each([
    [1, 'учащийся'],
    [2, 'учащихся'],
    [5, 'учащихся'],
    [11, 'учащихся'],
    [21, 'учащийся'],
    [22, 'учащихся'],
    [1.5, 'учащегося'],
  ])('Russian: %d %s', (value, expected) => {
    expect(pluralForm('ru', value, learners)).toBe(expected)
  })

  it('English: one and other; a missing form falls back to other', () => {
    const forms = { one: 'learner', other: 'learners' }
    expect([0, 1, 2, 21].map((n) => pluralForm('en', n, forms))).toEqual(['learners', 'learner', 'learners', 'learners'])
    expect(pluralForm('ru', 5, { other: 'раз' })).toBe('раз')
  })

  it('the plural() message picks the form and writes the number in the language', () => {
    const message = plural<{ count: number; code: string }>('count', {
      one: '{count} learner uses {code}',
      other: '{count} learners use {code}',
    }) as unknown as { input: unknown; transform: (language: string, input: unknown, args: unknown[]) => string }
    const russian = { one: '{count} учащийся, {code}', few: '{count} учащихся, {code}', many: '{count} учащихся, {code}' }
    expect(message.transform('en', message.input, [{ count: 1, code: 'B2' }])).toBe('1 learner uses B2')
    expect(message.transform('en', message.input, [{ count: 1234, code: 'B2' }])).toBe('1,234 learners use B2')
    expect(message.transform('ru', russian, [{ count: 21, code: 'B2' }])).toBe('21 учащийся, B2')
    expect(spaces(message.transform('ru', russian, [{ count: 1234, code: 'B2' }]))).toBe('1 234 учащихся, B2')
  })
})

describe('numbers', () => {
  it('are grouped as the language writes them', () => {
    expect(formatNumber('en', 12345)).toBe('12,345')
    expect(spaces(formatNumber('ru', 12345))).toBe('12 345')
    expect(formatNumber('ru', 1.5)).toBe('1,5')
  })
})

describe('dates and times', () => {
  const now = Date.UTC(2026, 4, 20, 12, 0, 0)
  const ago = (seconds: number) => now - seconds * 1000

  it.each([
    [10, 'now', 'сейчас'],
    [5 * 60, '5 minutes ago', '5 минут назад'],
    [61 * 60, '1 hour ago', '1 час назад'],
    [3 * 3600, '3 hours ago', '3 часа назад'],
    [21 * 60, '21 minutes ago', '21 минуту назад'],
    [26 * 3600, 'yesterday', 'вчера'],
    [3 * 86400, '3 days ago', '3 дня назад'],
  ])('%i s ago: %s / %s', (seconds, english, russian) => {
    expect(formatRelativeTime('en', ago(seconds), now)).toBe(english)
    expect(formatRelativeTime('ru', ago(seconds), now)).toBe(russian)
  })

  it('gives a date once it is a week or more away', () => {
    const longAgo = Date.UTC(2026, 0, 2, 9, 30)
    expect(formatRelativeTime('en', longAgo, now)).toBe(formatDateTime('en', longAgo))
    expect(formatRelativeTime('ru', longAgo, now)).toBe(formatDateTime('ru', longAgo))
  })

  it('writes dates in the language', () => {
    const date = Date.UTC(2026, 0, 2, 9, 30)
    const options = { dateStyle: 'long', timeZone: 'UTC' } as const
    expect(formatDateTime('en', date, options)).toBe('January 2, 2026')
    expect(spaces(formatDateTime('ru', date, options))).toBe('2 января 2026 г.')
  })
})

describe('messages with numbers, in both languages', () => {
  it('how many learners a deleted level leaves', () => {
    const en = messagesIn('en', levelsAdminMessages)
    const ru = messagesIn('ru', levelsAdminMessages)
    expect(en.usageSome({ count: 1 })).toBe(
      'Learners who have this level in their profile: 1. It will be cleared from their profiles.',
    )
    expect(en.usageSome({ count: 1234 })).toContain(': 1,234.')
    expect(ru.usageSome({ count: 1 })).toMatch(/^1 учащийся указал /)
    expect(ru.usageSome({ count: 2 })).toMatch(/^2 учащихся указали /)
    expect(ru.usageSome({ count: 5 })).toMatch(/^5 учащихся указали /)
    expect(ru.usageSome({ count: 21 })).toMatch(/^21 учащийся указал /)
    expect(spaces(ru.usageSome({ count: 1234 }))).toMatch(/^1 234 учащихся указали /)
  })

  it('how far the target is', () => {
    expect(messagesIn('en', dashboardMessages).progressToTarget({ steps: 1 })).toBe('1 more to your target')
    const ru = messagesIn('ru', dashboardMessages)
    expect([1, 2, 5].map((steps) => ru.progressToTarget({ steps }))).toEqual([
      'До цели остался 1 уровень',
      'До цели осталось 2 уровня',
      'До цели осталось 5 уровней',
    ])
  })

  it('how long to wait after too many attempts', () => {
    const en = messagesIn('en', apiErrorMessages)
    const ru = messagesIn('ru', apiErrorMessages)
    expect(en.rateLimited({ seconds: '1' })).toBe('Too many attempts. Try again in 1 second.')
    expect(en.rateLimited({ seconds: '30' })).toBe('Too many attempts. Try again in 30 seconds.')
    expect(ru.rateLimited({ seconds: '1' })).toBe('Слишком много попыток. Повторите через 1 секунду.')
    expect(ru.rateLimited({ seconds: '3' })).toBe('Слишком много попыток. Повторите через 3 секунды.')
    expect(ru.rateLimited({ seconds: '30' })).toBe('Слишком много попыток. Повторите через 30 секунд.')
    expect(ru.rateLimitedMinutes({ minutes: '15' })).toBe('Слишком много попыток. Повторите через 15 минут.')
    expect(ru.rateLimitedMinutes({ minutes: '1' })).toBe('Слишком много попыток. Повторите через 1 минуту.')
  })

  it('how long a field must be', () => {
    const en = messagesIn('en', validationMessages)
    const ru = messagesIn('ru', validationMessages)
    expect(en.tooShort({ min: 8 })).toBe('At least 8 characters')
    expect(en.tooShort({ min: 1 })).toBe('At least 1 character')
    expect(ru.tooShort({ min: 8 })).toBe('Не короче 8 символов')
    expect(ru.tooShort({ min: 1 })).toBe('Не короче 1 символа')
    expect(ru.tooShort({ min: 21 })).toBe('Не короче 21 символа')
    expect(spaces(ru.tooLong({ max: 2000 }))).toBe('Не длиннее 2 000 символов')
    expect(en.tooLong({ max: 2000 })).toBe('At most 2,000 characters')
  })
})

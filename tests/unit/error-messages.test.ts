import { describe, expect, it } from 'vitest'
import { errorCodes, statusOfCode } from '@/shared/errors'
import { errorMessage, messageOfCode } from '@/client/lib/error-message'
import { ApiRequestError, HttpError, NetworkError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { messagesIn } from './messages-in'

const en = messagesIn('en', apiErrorMessages)
const ru = messagesIn('ru', apiErrorMessages)
/** What the server writes (English, for developers and logs): never what the user reads. */
const serverText = 'Server wording that must not reach the user'

describe('error messages the user reads', () => {
  it.each(errorCodes)('%s has a message in English and in Russian', (code) => {
    const key = messageOfCode[code]
    expect(en[key], code).toBeTypeOf('string')
    expect(en[key].trim(), code).not.toBe('')
    expect(ru[key].trim(), code).not.toBe('')
    expect(ru[key], code).not.toBe(en[key])
    expect(ru[key], code).toMatch(/[а-яё]/i)
  })

  it.each(errorCodes)('%s is told in the interface language, not in the server’s words', (code) => {
    const error = new ApiRequestError(statusOfCode[code], code, serverText)
    const english = errorMessage(error, en)
    const russian = errorMessage(error, ru)
    expect(english).not.toBe(serverText)
    expect(english.trim()).not.toBe('')
    expect(russian).toMatch(/[а-яё]/i)
    expect(russian).not.toBe(english)
  })

  it('gives the failures a user meets their own words', () => {
    const says = (status: number, code: ApiRequestError['code'], retryAfter?: number) =>
      errorMessage(new ApiRequestError(status, code, serverText, undefined, retryAfter), ru)
    expect(says(401, 'invalid_credentials')).toBe(ru.invalidCredentials)
    expect(says(400, 'weak_password')).toBe(ru.weakPassword)
    expect(says(400, 'invalid_token')).toBe(ru.invalidToken)
    expect(says(403, 'email_not_verified')).toBe(ru.emailNotVerified)
    expect(says(401, 'unauthenticated')).toBe(ru.sessionMissing)
    expect(says(503, 'service_unavailable')).toBe(ru.serviceUnavailable)
    expect(says(429, 'rate_limited', 30)).toBe('Слишком много попыток. Повторите через 30 секунд.')
    expect(says(429, 'rate_limited', 1)).toBe('Слишком много попыток. Повторите через 1 секунду.')
    // A locked sign-in: Retry-After up to 15 minutes.
    expect(says(429, 'rate_limited', 841)).toBe('Слишком много попыток. Повторите через 15 минут.')
    expect(says(429, 'rate_limited')).toBe(ru.rateLimitedNoTime)
    // An email asked for again within the throttle's minute: said as such, not as an attack.
    expect(says(429, 'email_recently_sent', 42)).toBe('Мы только что отправили письмо на этот адрес. Запросить снова можно через 42 секунды.')
    expect(says(429, 'email_recently_sent')).toBe(ru.emailRecentlySentNoTime)
    expect(errorMessage(new NetworkError(), ru)).toBe(ru.network)
    expect(errorMessage(new HttpError(502), ru)).toBe(ru.serviceUnavailable)
  })

  it('words an answer outside the error shape (a proxy’s page) by its status', () => {
    const says = (status: number) => errorMessage(new ApiRequestError(status, 'unknown', 'Bad Gateway'), ru)
    expect(says(400)).toBe(ru.badRequest)
    expect(says(404)).toBe(ru.notFound)
    expect(says(415)).toBe(ru.unsupportedMediaType)
    expect(says(500)).toBe(ru.server)
    expect(says(418)).toBe(ru.unknown)
    // A code from a newer server: its status still says something.
    expect(errorMessage(new ApiRequestError(409, 'edit_clash' as never, serverText), ru)).toBe(ru.conflict)
  })
})

import { describe, expect, it } from 'vitest'
import { avatarSources } from '@/shared/avatars'
import { acceptedLanguages, detectLanguage } from '@/shared/preferences'
import { initials } from '@/client/lib/initials'
import { screenMessage } from '@/client/features/errors/screen-message'
import {
  ApiRequestError,
  HttpError,
  NetworkError,
  describeError,
} from '@/client/lib/http-error'
import { errorMessage } from '@/client/lib/error-message'
import { retryRead } from '@/client/lib/retry'
import { safeRedirect } from '@/client/lib/redirect'
import { parseRuntimeConfig } from '@/client/lib/runtime-config'
import { describeUserAgent } from '@/client/lib/user-agent'

describe('the picture an avatar loads', () => {
  const uploaded = '/api/avatars/BS7TUKcmCBOUtqaxA5nKEAvylzWbTHnA/c4c5f0ba0e5ea5df38ee-256.webp'
  const small = '/api/avatars/BS7TUKcmCBOUtqaxA5nKEAvylzWbTHnA/c4c5f0ba0e5ea5df38ee-64.webp'
  it('is the 64 px image up to 32 px (sharp at twice the density), with the 256 px one for 2× above', () => {
    expect(avatarSources(uploaded, 16)).toEqual({ src: small })
    expect(avatarSources(uploaded, 32)).toEqual({ src: small })
    expect(avatarSources(uploaded, 48)).toEqual({ src: small, srcSet: `${small} 1x, ${uploaded} 2x` })
  })
  it('is a link set before uploads as it is, and nothing without a picture', () => {
    expect(avatarSources('https://example.com/ada.png', 48)).toEqual({ src: 'https://example.com/ada.png' })
    expect(avatarSources(null, 32)).toBeNull()
    expect(avatarSources('', 32)).toBeNull()
    // Only the app's own URL shape is rewritten.
    expect(avatarSources('https://evil.example/api/avatars/x/c4c5f0ba0e5ea5df38ee-256.webp', 16)?.src).toMatch(/^https:/)
  })
})

describe('avatar initials', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    [undefined, ''],
    ['ada', 'A'],
    ['Ada Lovelace', 'AL'],
    ['ada byron lovelace', 'AB'],
    ['  Ada    Lovelace  ', 'AL'],
    ['Юрий Гагарин', 'ЮГ'],
  ])('%j → %j', (alt, expected) => {
    expect(initials(alt)).toBe(expected)
  })
})

describe('the error screen message', () => {
  const t = {
    heading: 'Something went wrong.',
    unknown: 'An unknown error occurred.',
    home: 'Home',
    goBack: 'Go Back',
    pageNotFound: ({ path }: { path: string }) => `Page not found: ${path}`,
    pageNotFoundParam: ({ path }: { path: string }) => `Page Not Found: ${path}`,
    adminsOnly: 'Administrators only',
    levelNotFound: 'Language level not found',
    deckNotFound: 'Deck not found',
  }

  it('falls back to the localized unknown-error text when there is no message', () => {
    expect(screenMessage({}, t)).toBe('An unknown error occurred.')
    expect(screenMessage({ message: '' }, t)).toBe('An unknown error occurred.')
    expect(screenMessage({ message: '   ' }, t)).toBe('An unknown error occurred.')
  })

  it('shows the message, or its localized form when there is one', () => {
    expect(screenMessage({ message: 'Boom' }, t)).toBe('Boom')
    expect(
      screenMessage({ message: 'x', localized: { key: 'pageNotFound', path: '/x' } }, t),
    ).toBe('Page not found: /x')
    expect(
      screenMessage({ message: 'x', localized: { key: 'pageNotFoundParam', path: '/y' } }, t),
    ).toBe('Page Not Found: /y')
    expect(screenMessage({ localized: { key: 'adminsOnly' } }, t)).toBe('Administrators only')
    expect(screenMessage({ message: 'x', localized: { key: 'levelNotFound' } }, t)).toBe('Language level not found')
  })

  it('takes the status from HTTP errors and 500 from anything else', () => {
    expect(describeError(new HttpError(404, 'gone'))).toMatchObject({ status: 404, message: 'gone' })
    expect(describeError(new Error('x'))).toEqual({ status: 500, message: 'x' })
    expect(describeError(undefined)).toEqual({ status: 500, message: '' })
  })
})

describe('read retries', () => {
  it('retries network failures and 502/503/504 up to three attempts in all', () => {
    for (const error of [new NetworkError(), ...[502, 503, 504].map((s) => new HttpError(s))]) {
      expect(retryRead(0, error)).toBe(true)
      expect(retryRead(1, error)).toBe(true)
      expect(retryRead(2, error)).toBe(false)
    }
  })

  it('does not retry answers that will not change', () => {
    for (const status of [400, 401, 403, 404, 409, 429, 500]) {
      expect(retryRead(0, new ApiRequestError(status, 'unknown', 'x'))).toBe(false)
    }
  })
})

describe('runtime configuration', () => {
  const valid = {
    apiBaseUrl: '/api/',
    appName: 'Lingua',
    version: '1.2.3',
  }

  it('accepts the server configuration', () => {
    expect(parseRuntimeConfig(valid)).toEqual({ ...valid, apiBaseUrl: '/api', providers: [] })
  })

  it('reads the sign-in providers in order, none when the list is missing or empty', () => {
    const providers = [
      { id: 'oidc', name: 'Company SSO' },
      { id: 'github', name: 'GitHub', extra: true },
    ]
    expect(parseRuntimeConfig({ ...valid, providers }).providers).toEqual([
      { id: 'oidc', name: 'Company SSO' },
      { id: 'github', name: 'GitHub' },
    ])
    expect(parseRuntimeConfig({ ...valid, providers: [] }).providers).toEqual([])
    expect(parseRuntimeConfig({ ...valid, providers: null }).providers).toEqual([])
  })

  it('names what is wrong', () => {
    expect(() => parseRuntimeConfig(null)).toThrow('Invalid /config.json')
    expect(() => parseRuntimeConfig({ ...valid, appName: 3 })).toThrow('appName')
    expect(() => parseRuntimeConfig({ ...valid, providers: 'oidc' })).toThrow('providers')
    expect(() => parseRuntimeConfig({ ...valid, providers: [{ id: 'oidc', name: 'SSO' }, { id: 'github' }] })).toThrow(
      'providers[1]',
    )
    expect(() => parseRuntimeConfig({ ...valid, providers: [{ id: '', name: 'SSO' }] })).toThrow('providers[0]')
  })
})

describe('language detection', () => {
  it('prefers the remembered choice, then the browser, then English', () => {
    expect(detectLanguage('ru', ['en-US'])).toBe('ru')
    expect(detectLanguage(null, ['de-DE', 'ru-RU', 'en'])).toBe('ru')
    expect(detectLanguage('xx', ['EN-gb'])).toBe('en')
    expect(detectLanguage(null, ['de', 'fr'])).toBe('en')
  })

  it('reads Accept-Language as the server does: most wanted first, q=0 refused, the rest in order', () => {
    expect(acceptedLanguages('de-DE,ru;q=0.8,en;q=0.5')).toEqual(['de-DE', 'ru', 'en'])
    expect(acceptedLanguages('en;q=0.4, ru;q=0.9')).toEqual(['ru', 'en'])
    expect(acceptedLanguages('ru;q=0, en')).toEqual(['en'])
    expect(acceptedLanguages('*, fr')).toEqual(['fr'])
    expect(acceptedLanguages(undefined)).toEqual([])
    expect(acceptedLanguages(' , ;q=1')).toEqual([])
    expect(detectLanguage(undefined, acceptedLanguages('fr-CH, ru;q=0.7'))).toBe('ru')
    // The cookie (the language chosen in the app) first.
    expect(detectLanguage('en', acceptedLanguages('ru'))).toBe('en')
  })
})

describe('redirect after sign-in', () => {
  it.each(['/dashboard', '/admin/language-levels?page=2', '/a#b'])('keeps %s', (path) => {
    expect(safeRedirect(path)).toBe(path)
    expect(safeRedirect(path, 'http://localhost:3000')).toBe(path)
  })

  it('resolves dot segments that stay on the app', () => {
    expect(safeRedirect('/admin/../dashboard')).toBe('/dashboard')
    expect(safeRedirect('/%2e%2e/account')).toBe('/account')
  })

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    'dashboard',
    '/\tevil',
    // Paths that resolve to `//evil.example`, which a browser reads as another host.
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/a/../..//evil.example',
    '/./..//evil.example?x=1',
    '',
    42,
    undefined,
  ])('refuses %j', (value) => {
    expect(safeRedirect(value)).toBeUndefined()
  })
})

describe('error messages for the user', () => {
  const t = {
    network: 'network',
    serviceUnavailable: 'unavailable',
    rateLimited: ({ seconds }: { seconds: string }) => `wait ${seconds}`,
    rateLimitedMinutes: ({ minutes }: { minutes: string }) => `wait ${minutes} min`,
    rateLimitedNoTime: 'wait',
    emailRecentlySent: ({ seconds }: { seconds: string }) => `emailed, wait ${seconds}`,
    emailRecentlySentNoTime: 'emailed, wait',
    sessionMissing: 'session',
    invalidCredentials: 'credentials',
    emailNotVerified: 'verify',
    accountDisabled: 'disabled',
    weakPassword: 'weak',
    invalidToken: 'token',
    wrongPassword: 'wrong',
    forbidden: 'forbidden',
    notFound: 'not found',
    methodNotAllowed: 'method not allowed',
    conflict: 'conflict',
    decksFull: 'decks full',
    cardsFull: 'cards full',
    newWordNotAllowed: 'new word not counted',
    validation: 'fields',
    tooLarge: 'large',
    badRequest: 'bad request',
    unsupportedMediaType: 'unsupported',
    invalidImage: 'unreadable picture',
    imageTooLarge: 'too many pixels',
    server: 'server',
    unknown: 'unknown',
    retry: 'retry',
  }

  it.each([
    [new NetworkError(), 'network'],
    [new HttpError(502), 'unavailable'],
    [new ApiRequestError(503, 'service_unavailable', 'x'), 'unavailable'],
    [new ApiRequestError(401, 'invalid_credentials', 'x'), 'credentials'],
    [new ApiRequestError(401, 'unauthenticated', 'x'), 'session'],
    [new ApiRequestError(403, 'email_not_verified', 'x'), 'verify'],
    [new ApiRequestError(403, 'account_disabled', 'x'), 'disabled'],
    [new ApiRequestError(400, 'weak_password', 'x'), 'weak'],
    [new ApiRequestError(400, 'invalid_token', 'x'), 'token'],
    [new ApiRequestError(400, 'validation_failed', 'x'), 'fields'],
    [new ApiRequestError(429, 'rate_limited', 'x', undefined, 30), 'wait 30'],
    [new ApiRequestError(429, 'rate_limited', 'x', undefined, 841), 'wait 15 min'],
    [new ApiRequestError(429, 'rate_limited', 'x'), 'wait'],
    [new ApiRequestError(429, 'email_recently_sent', 'x', undefined, 42), 'emailed, wait 42'],
    [new ApiRequestError(409, 'new_word_not_allowed', 'x'), 'new word not counted'],
    [new ApiRequestError(409, 'decks_full', 'x'), 'decks full'],
    [new ApiRequestError(409, 'cards_full', 'x'), 'cards full'],
    [new ApiRequestError(400, 'invalid_image', 'x'), 'unreadable picture'],
    [new ApiRequestError(400, 'image_too_large', 'x'), 'too many pixels'],
    [new ApiRequestError(415, 'unsupported_media_type', 'x'), 'unsupported'],
    [new ApiRequestError(500, 'internal_error', 'x'), 'server'],
    [new Error('?'), 'unknown'],
  ])('%s → %s', (error, expected) => {
    expect(errorMessage(error, t)).toBe(expected)
  })
})

describe('devices in the list of sessions', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0', 'Firefox · Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari · macOS'],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36', 'Chrome · Android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari · iOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0', 'Edge · Windows'],
    ['curl/8.5.0', 'curl/8.5.0'],
  ])('%s → %s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toBe(expected)
  })

  it('has nothing to say without a User-Agent', () => {
    expect(describeUserAgent(null)).toBeNull()
    expect(describeUserAgent('')).toBeNull()
  })
})

import type { TFunction } from 'i18next'
import { ApiRequestError, NetworkError, isServiceUnavailable } from './http-error'

/** The one place where a failure becomes a sentence for the user. */
export function errorMessage(error: unknown, t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.network')
  if (isServiceUnavailable(error)) return t('errors.serviceUnavailable')
  if (error instanceof ApiRequestError) {
    switch (error.status) {
      case 400:
        return error.code === 'validation_failed' ? t('errors.validation') : error.message
      case 401:
        return t('errors.sessionMissing')
      case 403:
        return t('errors.forbidden')
      case 404:
        return t('errors.notFound')
      case 409:
        return t('errors.conflict')
      case 413:
        return t('errors.tooLarge')
      case 429:
        return error.retryAfterSeconds
          ? t('errors.rateLimited', { seconds: String(error.retryAfterSeconds) })
          : t('errors.rateLimitedNoTime')
      default:
        if (error.status >= 500) return t('errors.server')
    }
    return error.message || t('errors.unknown')
  }
  return t('errors.unknown')
}

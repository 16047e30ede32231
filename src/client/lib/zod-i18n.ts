import i18next from 'i18next'
import { z } from 'zod/mini'

/** Client-side validation messages in the interface language (the server answers in English). */
export function installZodMessages() {
  z.config({
    customError: (issue) => {
      const t = i18next.t
      switch (issue.code) {
        case 'too_small':
          return issue.origin === 'string' && Number(issue.minimum) <= 1
            ? t('validation.required')
            : t('validation.tooShort', { min: String(issue.minimum) })
        case 'too_big':
          return t('validation.tooLong', { max: String(issue.maximum) })
        case 'invalid_format':
          return issue.format === 'email' ? t('validation.email') : undefined
        default:
          return undefined
      }
    },
  })
}

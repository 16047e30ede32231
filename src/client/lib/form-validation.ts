import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import type { FieldValues, Resolver } from 'react-hook-form'
import { z } from 'zod/mini'
import { LEVEL_CODE_PATTERN } from '@/shared/levels'
import { formatNumber } from './format'
import { locale } from './i18n'
import { validationMessages } from './messages'

let installed = false

/** Client-side validation messages in the interface language (the server answers in English). */
function installZodMessages() {
  if (installed) return
  installed = true
  z.config({
    customError: (issue) => {
      const t = validationMessages.get()
      switch (issue.code) {
        case 'too_small':
          if (issue.origin === 'number') return t.atLeast({ min: formatNumber(locale.get(), Number(issue.minimum)) })
          return issue.origin === 'string' && Number(issue.minimum) <= 1
            ? t.required
            : t.tooShort({ min: Number(issue.minimum) })
        case 'too_big':
          if (issue.origin === 'number') return t.atMost({ max: formatNumber(locale.get(), Number(issue.maximum)) })
          return t.tooLong({ max: Number(issue.maximum) })
        case 'invalid_type':
          // An empty number field (NaN) or a fraction where a count is asked for.
          return issue.expected === 'number' || issue.expected === 'int' ? t.wholeNumber : undefined
        case 'invalid_format':
          if (issue.format === 'email') return t.email
          if (issue.format !== 'regex') return undefined
          // A level's code (letters, digits, `+ . _ -`), else the 6 digits of a sign-in code.
          return String(issue.pattern) === String(LEVEL_CODE_PATTERN) ? t.levelCode : t.code
        case 'custom':
          if (issue.params?.mismatch) return t.passwordMismatch
          if (issue.params?.targetBelowCurrent) return t.targetBelowCurrent
          if (issue.params?.nameControl) return t.nameControl
          if (issue.params?.nameBlank) return t.nameBlank
          return undefined
        default:
          return undefined
      }
    },
  })
}

/** The resolver of a schema, with the messages in the interface language (loaded by form-resolver.ts). */
export function validatorFor<T extends FieldValues>(schema: z.core.$ZodType<T, T>): Resolver<T> {
  installZodMessages()
  return standardSchemaResolver(schema) as Resolver<T>
}

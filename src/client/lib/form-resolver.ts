import type { FieldValues, Resolver } from 'react-hook-form'
import type { z } from 'zod/mini'
import type * as authSchemas from '@/shared/auth-schemas'

/** The validation code (zod, the schemas' messages), asked for once (the module system keeps it). */
const loadValidation = () => import('./form-validation')
let preloading = false

/**
 * react-hook-form resolver for a shared zod schema, with localized messages (the server answers in
 * English). The schema and zod are loaded when the form is first validated, not with the page
 * (docs/decisions/0017-react.md): `load` imports the schema's module, e.g.
 * `formResolver(() => import('./level-schemas').then((schemas) => schemas.createSchema))`, or
 * `formResolver(authSchema('signInSchema'))` for the account forms.
 * They are asked for as soon as a control of any form gets the focus, so a submit does not wait.
 */
export function formResolver<T extends FieldValues>(load: () => Promise<z.core.$ZodType<T, T>>): Resolver<T> {
  if (!preloading && typeof document !== 'undefined') {
    preloading = true
    // A field's focus, not any focus: the page's heading takes it after a navigation.
    const preload = (event: FocusEvent) => {
      if (!(event.target instanceof Element) || !event.target.closest('form')) return
      document.removeEventListener('focusin', preload)
      void loadValidation()
    }
    document.addEventListener('focusin', preload)
  }
  let validate: Promise<Resolver<T>> | undefined
  return async (values, context, options) => {
    validate ??= Promise.all([loadValidation(), load()]).then(([{ validatorFor }, schema]) => validatorFor(schema))
    return (await validate)(values, context, options)
  }
}

/** The loader of one of the account forms' schemas (shared/auth-schemas.ts), for `formResolver`. */
export const authSchema =
  <K extends keyof typeof authSchemas>(name: K) =>
  () =>
    import('@/shared/auth-schemas').then((schemas) => schemas[name])

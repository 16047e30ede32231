import { useStore } from '@nanostores/react'
import { type BaseSyntheticEvent, useState } from 'react'
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { errorMessage } from './error-message'
import { ApiRequestError } from './http-error'
import { apiErrorMessages, validationMessages } from './messages'
import { useAction } from './use-action'

interface FormMutationOptions<TValues extends FieldValues, TResult> {
  onSuccess?: (result: TResult, values: TValues) => unknown
  /** The field that gets "Wrong password." when the server refuses the password given. */
  passwordField?: Path<TValues>
  /**
   * The interface-language text for a field error the server gave (it writes English), e.g. a
   * code another level already uses; undefined gives the generic "Check this value".
   */
  fieldMessage?: (error: ApiRequestError, field: string) => string | undefined
}

/**
 * The one way a form sends itself: validated by its resolver, sent once (writes are never
 * retried), with the server's field errors placed on the fields and any other failure as one
 * localized sentence (`errorText`) for an alert above the button.
 */
export function useFormMutation<TValues extends FieldValues, TResult>(
  form: UseFormReturn<TValues>,
  mutationFn: (values: TValues) => Promise<TResult>,
  options: FormMutationOptions<TValues, TResult> = {},
) {
  const t = useStore(apiErrorMessages)
  const fieldTexts = useStore(validationMessages)
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  const mutation = useAction(mutationFn, {
    onMutate: () => setFailure(null),
    onSuccess: (result, values) => options.onSuccess?.(result, values),
    onError: (error) => {
      if (!placeOnFields(form, error, options.passwordField)) setFailure({ error })
    },
  })
  return {
    mutation,
    submit: (event?: BaseSyntheticEvent) =>
      form.handleSubmit((values) => mutation.mutate(values))(event),
    errorText: failure ? errorMessage(failure.error, t) : undefined,
    /** Forgets the last failure (a stale edit reloaded): no alert until the next send. */
    reset: () => {
      mutation.reset()
      setFailure(null)
    },
  }

  function placeOnFields(
    target: UseFormReturn<TValues>,
    error: unknown,
    passwordField: Path<TValues> | undefined,
  ): boolean {
    if (!(error instanceof ApiRequestError)) return false
    if (error.code === 'invalid_credentials' && passwordField) {
      target.setError(passwordField, { message: t.wrongPassword }, { shouldFocus: true })
      return true
    }
    const values = target.getValues() as Record<string, unknown>
    let placed = false
    for (const [name, messages] of Object.entries(error.fields ?? {})) {
      if (!(name in values) || !messages[0]) continue
      // The server writes English: the field gets the interface language's words for the failure.
      const message =
        error.code === 'weak_password'
          ? t.weakPassword
          : (options.fieldMessage?.(error, name) ?? fieldTexts.invalid)
      target.setError(name as Path<TValues>, { message }, { shouldFocus: !placed })
      placed = true
    }
    return placed
  }
}

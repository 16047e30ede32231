import type { UseFormReturn } from 'react-hook-form'
import { Field, Input } from '@/client/components/ui/field'
import { cn } from '@/client/lib/cn'

/**
 * The field of a one-time code (emailed, or from an authenticator app), which the browser may fill
 * in (`one-time-code`); the form's field is named `code`. Digits by default (a numeric keyboard);
 * with `backupCodes` a backup code too (letters, digits and a dash: no capitals, no spell check).
 * `length` caps the field at that many characters and spaces them out.
 */
export function OneTimeCodeField<T extends { code: string }>({
  form,
  label,
  length,
  backupCodes = false,
  autoFocus = false,
}: {
  form: UseFormReturn<T>
  label: string
  length?: number
  backupCodes?: boolean
  /** Only where the code is the one thing to do on the step. */
  autoFocus?: boolean
}) {
  // Only this field is used: react-hook-form cannot narrow a generic form's paths to it.
  const { register, formState } = form as unknown as UseFormReturn<{ code: string }>
  return (
    <Field label={label} error={formState.errors.code?.message}>
      {(control) => (
        <Input
          {...control}
          inputMode={backupCodes ? undefined : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize={backupCodes ? 'none' : undefined}
          spellCheck={backupCodes ? false : undefined}
          maxLength={length}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the caller's choice, see `autoFocus`
          autoFocus={autoFocus}
          className={cn('font-mono', length ? 'tracking-[0.3em]' : 'tracking-widest')}
          {...register('code')}
        />
      )}
    </Field>
  )
}

import type { ReactNode } from 'react'
import { type UseFormRegisterReturn, useFormContext, useFormState } from 'react-hook-form'
import { Field, type FieldControlProps } from '@/client/components/ui/field'

/**
 * A `Field` bound to a field of the form around it (`FormProvider`): its control is registered under
 * `name`, and the field's error is the one the form has for that name.
 */
export function FormField({
  name,
  label,
  hint,
  children,
}: {
  name: string
  label: string
  hint?: string
  children: (control: FieldControlProps & UseFormRegisterReturn) => ReactNode
}) {
  const { register, control } = useFormContext()
  const { errors } = useFormState({ control, name })
  // The forms' field names are flat: `name` is a key of the errors.
  const message = errors[name]?.message
  const registered = register(name)
  return (
    <Field label={label} hint={hint} error={typeof message === 'string' ? message : undefined}>
      {(field) => children({ ...field, ...registered })}
    </Field>
  )
}

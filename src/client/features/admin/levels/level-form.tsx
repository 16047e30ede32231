import { useStore } from '@nanostores/react'
import { useEffect } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { LEVEL_DESCRIPTION_MAX, type LanguageLevel } from '@/shared/levels'
import { ProblemAlert } from '@/client/components/forms/problem-alert'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { format } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { levelsApi } from './api'
import type { LevelValues } from './level-schemas'
import { levelFormMessages } from './messages'

const valuesOf = (level: LanguageLevel): LevelValues => ({
  code: level.code,
  name: level.name,
  description: level.description,
  version: level.version,
})

const empty: LevelValues = { code: '', name: '', description: '' }

/** A stale edit: the level changed since the form read it (not a duplicate code, which has a field). */
function isStale(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 409 && !error.fields?.code
}

/**
 * The one level form, for creating (`level` absent) and editing. An edit sends the version it
 * read: when someone else saved in between, the server refuses it (409) and the form offers to
 * load the current version. `disabled`: shown, but not sendable (a non-admin on the create page).
 */
export function LevelForm({
  level,
  disabled = false,
  changedBy,
  onSaved,
}: {
  level?: LanguageLevel
  disabled?: boolean
  /** Who else just changed this level (a live audit event), to say so before a save is refused. */
  changedBy?: string | null
  onSaved?: (level: LanguageLevel) => unknown
}) {
  const t = useStore(levelFormMessages)
  const formats = useStore(format)
  const editing = level !== undefined
  const form = useForm<LevelValues>({
    resolver: formResolver(() => import('./level-schemas').then((schemas) => (editing ? schemas.editSchema : schemas.createSchema))),
    defaultValues: level ? valuesOf(level) : empty,
    disabled,
  })
  const { mutation, submit, errorText, reset } = useFormMutation(
    form,
    ({ version, ...input }) =>
      level && version !== undefined
        ? levelsApi.update(level.id, { ...input, version })
        : levelsApi.create(input),
    {
      fieldMessage: (error, field) =>
        error.status === 409 && field === 'code' ? levelFormMessages.get().codeTaken : undefined,
      onSuccess: async (saved) => {
        const texts = levelFormMessages.get()
        toast({ title: editing ? texts.saved : texts.created({ code: saved.code }), variant: 'success' })
        const { levelFormCache } = await import('./level-cache')
        levelFormCache.saved(saved)
        if (editing) form.reset(valuesOf(saved))
        await onSaved?.(saved)
        void levelFormCache.refresh()
      },
    },
  )
  const { errors, isDirty } = form.formState
  const description = useWatch({ control: form.control, name: 'description' })

  // A newer version read in the background (another tab saved) replaces an untouched form.
  useEffect(() => {
    if (level && level.version !== form.getValues('version') && !form.formState.isDirty) {
      form.reset(valuesOf(level))
    }
  }, [level, form])

  const reload = async () => {
    if (!level) return
    const { levelFormCache } = await import('./level-cache')
    const current = await levelFormCache.current(level.id)
    reset()
    form.reset(valuesOf(current))
    form.setFocus('code')
  }

  const stale = isStale(mutation.error)
  const busy = mutation.isPending
  // A newer version arrived while this form holds changes made to the older one.
  const overtaken = Boolean(level && isDirty && level.version !== form.getValues('version'))

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-5">
      <Field label={t.code} hint={t.codeHint} error={errors.code?.message}>
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className="max-w-48 font-mono"
            {...form.register('code')}
          />
        )}
      </Field>
      <Field label={t.name} error={errors.name?.message}>
        {(control) => (
          <Input {...control} autoComplete="off" {...form.register('name')} />
        )}
      </Field>
      <Field
        label={t.description}
        hint={t.descriptionHint({
          count: formats.number(description.length),
          max: formats.number(LEVEL_DESCRIPTION_MAX),
        })}
        error={errors.description?.message}
      >
        {(control) => <Textarea {...control} rows={6} {...form.register('description')} />}
      </Field>
      {(stale || overtaken) && (
        // Refused as stale (409), or known to be before a save: the same way out, Reload.
        <ProblemAlert
          variant={stale ? 'error' : 'warning'}
          title={stale || !changedBy ? t.conflictTitle : t.changedBy({ name: changedBy })}
          body={stale ? t.conflictBody : t.changedBody}
          reload={{ label: t.reload, onClick: reload }}
        />
      )}
      {errorText && !stale && <Alert variant="error">{errorText}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={disabled || busy || (editing && !isDirty)}>
          {editing ? (busy ? t.saving : t.save) : busy ? t.creating : t.create}
        </Button>
        {editing && (
          <Button
            variant="ghost"
            disabled={disabled || busy || !isDirty}
            onClick={() => {
              reset()
              form.reset()
            }}
          >
            {t.discard}
          </Button>
        )}
      </div>
    </form>
  )
}

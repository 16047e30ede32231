import { useStore } from '@nanostores/react'
import { useForm, useWatch } from 'react-hook-form'
import { type CanDoStatement, SKILLS, STATEMENT_TEXT_MAX } from '@/shared/can-do'
import type { LanguageLevel } from '@/shared/levels'
import { DialogFrame } from '@/client/components/dialog-frame'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { format } from '@/client/lib/i18n'
import { skillMessages } from '@/client/components/skills/messages'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { statementsApi, useStatementsCache } from './api'
import { statementFormMessages } from './messages'
import type { StatementValues } from './statement-schemas'

const selectClass = 'h-10 w-full rounded-md border border-input bg-background px-2 text-sm'

const valuesOf = (statement: CanDoStatement): StatementValues => ({
  levelId: statement.levelId,
  skill: statement.skill,
  text: { ...statement.text },
  version: statement.version,
})

/** What the dialog is for: a new statement (where it goes first) or an edit. */
export type StatementDialogTarget =
  | { kind: 'new'; levelId?: number; skill?: (typeof SKILLS)[number] }
  | { kind: 'edit'; statement: CanDoStatement }

/**
 * Adds a statement (level, skill, both texts) or edits one's texts, in a dialog. An edit sends the
 * version it read: when someone else saved in between, the server refuses it (409) and the
 * dialog offers to load the current version, as the level form does.
 */
export default function StatementDialog({
  target,
  levels,
  onClose,
}: {
  target: StatementDialogTarget
  levels: readonly LanguageLevel[]
  onClose: () => void
}) {
  const t = useStore(statementFormMessages)
  const skills = useStore(skillMessages)
  const formats = useStore(format)
  const statements = useStatementsCache()
  const editing = target.kind === 'edit' ? target.statement : undefined
  const form = useForm<StatementValues>({
    resolver: formResolver(() =>
      import('./statement-schemas').then((schemas) => (editing ? schemas.editSchema : schemas.createSchema)),
    ),
    defaultValues: editing
      ? valuesOf(editing)
      : {
          levelId: target.kind === 'new' ? (target.levelId ?? levels[0]?.id ?? 0) : 0,
          skill: (target.kind === 'new' && target.skill) || SKILLS[0],
          text: { en: '', ru: '' },
        },
  })
  const { mutation, submit, errorText, reset } = useFormMutation(
    form,
    ({ levelId, skill, text, version }) =>
      editing && version !== undefined
        ? statementsApi.update(editing.id, { text, version })
        : statementsApi.create({ levelId, skill, text }),
    {
      onSuccess: async () => {
        toast({ title: editing ? t.saved : t.created, variant: 'success' })
        onClose()
        await statements.refresh()
      },
    },
  )
  const stale = mutation.error instanceof ApiRequestError && mutation.error.status === 409 && editing !== undefined
  const busy = mutation.isPending
  const [en, ru] = useWatch({ control: form.control, name: ['text.en', 'text.ru'] })
  const { errors } = form.formState
  const hint = (text: string) =>
    t.textHint({ count: formats.number(text.length), max: formats.number(STATEMENT_TEXT_MAX) })

  const reload = async () => {
    if (!editing) return
    const list = await statements.current({ levelId: editing.levelId, skill: editing.skill })
    const current = list.items.find((item) => item.id === editing.id)
    reset()
    if (current) form.reset(valuesOf(current))
    form.setFocus('text.en')
  }

  const levelCode = levels.find((level) => level.id === editing?.levelId)?.code ?? editing?.levelCode ?? ''

  return (
    <DialogFrame
      wide
      title={editing ? t.editTitle : t.newTitle}
      lead={editing ? t.editLead({ level: levelCode, skill: skills[editing.skill] }) : t.newLead}
      busy={busy}
      onClose={onClose}
    >
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        {!editing && (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t.level} hint={levels.length === 0 ? t.noLevels : undefined}>
              {(control) => (
                <select {...control} className={selectClass} {...form.register('levelId', { setValueAs: Number })}>
                  {levels.map((level) => (
                    <option key={level.id} value={level.id}>
                      {level.code} · {level.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t.skill}>
              {(control) => (
                <select {...control} className={selectClass} {...form.register('skill')}>
                  {SKILLS.map((skill) => (
                    <option key={skill} value={skill}>
                      {skills[skill]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        <Field label={t.english} hint={hint(en)} error={errors.text?.en?.message}>
          {(control) => <Textarea {...control} lang="en" rows={3} {...form.register('text.en')} />}
        </Field>
        <Field label={t.russian} hint={hint(ru)} error={errors.text?.ru?.message}>
          {(control) => <Textarea {...control} lang="ru" rows={3} {...form.register('text.ru')} />}
        </Field>
        {(stale || errorText) && (
          <Alert variant="error">
            {stale ? (
              <>
                <strong className="block">{t.conflictTitle}</strong>
                {t.conflictBody}
              </>
            ) : (
              errorText
            )}
          </Alert>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          {stale && (
            // The way out of a stale edit, beside the others.
            <Button variant="outline" className="mr-auto" onClick={() => void reload()}>
              {t.reload}
            </Button>
          )}
          <Button variant="outline" disabled={busy} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" disabled={busy || (!editing && levels.length === 0)}>
            {editing ? (busy ? t.saving : t.save) : busy ? t.creating : t.create}
          </Button>
        </div>
      </form>
    </DialogFrame>
  )
}

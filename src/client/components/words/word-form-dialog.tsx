import type { ComponentProps, ReactNode } from 'react'
import { FormDialog } from '@/client/components/forms/form-dialog'
import { ProblemAlert } from '@/client/components/forms/problem-alert'

/** What a word's dialog says: the admin's (a level's word) and a learner's (a deck's) word forms both have these. */
interface WordDialogTexts {
  editTitle: (values: { text: string }) => string
  addTitle: string
  editLead: string
  addLead: string
  cancel: string
  save: string
  saving: string
  add: string
  adding: string
  goneTitle: string
  goneBody: string
}

/**
 * The dialog to add a word (`word` null) or edit one: titled after the word, its form's fields
 * (`children`), then, when the word has been deleted meanwhile (`gone`), says so and saves nothing.
 * `error` is the failure no field and no alert of the form explains.
 */
export function WordFormDialog({
  texts: t,
  word,
  gone,
  error,
  children,
  ...frame
}: Omit<ComponentProps<typeof FormDialog>, 'title' | 'lead' | 'cancelLabel' | 'submitLabel' | 'submitDisabled'> & {
  texts: WordDialogTexts
  word: { text: string } | null
  gone: boolean
  children: ReactNode
}) {
  const busy = frame.busy ?? false
  return (
    <FormDialog
      {...frame}
      title={word ? t.editTitle({ text: word.text }) : t.addTitle}
      lead={word ? t.editLead : t.addLead}
      error={gone ? undefined : error}
      cancelLabel={t.cancel}
      submitLabel={word ? (busy ? t.saving : t.save) : busy ? t.adding : t.add}
      submitDisabled={gone}
    >
      {children}
      {gone && <ProblemAlert title={t.goneTitle} body={t.goneBody} />}
    </FormDialog>
  )
}

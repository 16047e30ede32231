import { useStore } from '@nanostores/react'
import { useNavigate } from '@tanstack/react-router'
import type { RefObject } from 'react'
import { useForm } from 'react-hook-form'
import { DECK_DESCRIPTION_MAX, DECK_NAME_MAX, type Deck } from '@/shared/decks'
import { FormDialog } from '@/client/components/forms/form-dialog'
import { LanguageSelect, useLanguageOptions } from '@/client/components/forms/language-select'
import { ProblemAlert } from '@/client/components/forms/problem-alert'
import { Field, Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { type DeckValues, decksApi, useDecksCache } from './api'
import { CheckboxField } from './checkbox-field'
import type { DeckFormValues } from './deck-schemas'
import { deckFormMessages, decksMessages } from './messages'

const valuesOf = (deck: Deck): DeckFormValues => ({
  name: deck.name,
  language: deck.language,
  description: deck.description ?? '',
  practiseDaily: deck.practiseDaily,
  version: deck.version,
})

/** What is sent: the schema has already trimmed the texts and made an empty description null. */
const inputOf = (values: DeckFormValues): DeckValues => ({
  name: values.name,
  language: values.language,
  description: values.description || null,
  practiseDaily: values.practiseDaily,
})

/** Refused as stale: the deck changed since the form was filled. */
const isStale = (error: unknown) => error instanceof ApiRequestError && error.status === 409 && error.code === 'conflict'

/**
 * The one dialog to make a deck (`deck` null: then its page opens) or edit one. An edit sends the
 * version it read: when the deck was saved elsewhere in between, the server refuses it (409) and
 * the dialog offers to load it as it is now. Loaded when first opened.
 */
export default function DeckDialog({
  deck,
  language,
  open,
  returnFocus,
  onClose,
}: {
  deck: Deck | null
  /** A new deck's language: the one the learner learns. */
  language?: string
  open: boolean
  returnFocus?: RefObject<HTMLElement | null>
  onClose: () => void
}) {
  const t = useStore(deckFormMessages)
  const languages = useLanguageOptions()
  const decks = useDecksCache()
  const navigate = useNavigate()
  const form = useForm<DeckFormValues>({
    resolver: formResolver(() => import('./deck-schemas').then((schemas) => schemas.deckFormSchema)),
    defaultValues: deck
      ? valuesOf(deck)
      : { name: '', language: languages.some(({ code }) => code === language) ? language : 'en', description: '', practiseDaily: true },
  })
  const { mutation, submit, errorText, reset } = useFormMutation(
    form,
    (values) => {
      const version = values.version
      return deck && version !== undefined ? decksApi.update(deck.id, { ...inputOf(values), version }) : decksApi.create(inputOf(values))
    },
    {
      onSuccess: async (saved) => {
        decks.saved(saved)
        void decks.refresh()
        if (deck) {
          toast({ title: deckFormMessages.get().saved({ name: saved.name }), variant: 'success' })
          onClose()
          return
        }
        toast({ title: decksMessages.get().created({ name: saved.name }), variant: 'success' })
        onClose()
        await navigate({ to: '/decks/$id', params: { id: String(saved.id) } })
      },
    },
  )
  const { errors } = form.formState
  const busy = mutation.isPending
  const stale = isStale(mutation.error)

  const reload = async () => {
    if (!deck) return
    const current = await decks.current(deck.id)
    reset()
    form.reset(valuesOf(current))
    form.setFocus('name')
  }

  return (
    <FormDialog
      open={open}
      busy={busy}
      title={deck ? t.editTitle({ name: deck.name }) : t.newTitle}
      lead={deck ? t.editLead : t.newLead}
      returnFocus={returnFocus}
      onClose={onClose}
      onSubmit={submit}
      error={stale ? undefined : errorText}
      cancelLabel={t.cancel}
      submitLabel={deck ? (busy ? t.saving : t.save) : busy ? t.creating : t.create}
    >
      <Field label={t.name} error={errors.name?.message}>
        {(control) => <Input {...control} autoComplete="off" maxLength={DECK_NAME_MAX} {...form.register('name')} />}
      </Field>
      <Field label={t.language} error={errors.language?.message}>
        {(control) => <LanguageSelect {...control} {...form.register('language')} />}
      </Field>
      <Field label={t.description} hint={t.descriptionHint} error={errors.description?.message}>
        {(control) => <Textarea {...control} rows={2} className="min-h-16" maxLength={DECK_DESCRIPTION_MAX} {...form.register('description')} />}
      </Field>
      <CheckboxField label={t.practiseDaily} hint={t.practiseDailyHint} {...form.register('practiseDaily')} />
      {stale && <ProblemAlert title={t.conflictTitle} body={t.conflictBody} reload={{ label: t.reload, onClick: reload }} />}
    </FormDialog>
  )
}

import { useStore } from '@nanostores/react'
import type { RefObject } from 'react'
import { useForm } from 'react-hook-form'
import { DECK_NOTES_MAX, type DeckWord } from '@/shared/decks'
import type { DeckWordInput } from '@/shared/decks-schemas'
import { type PartOfSpeech, WORD_EXAMPLE_MAX, WORD_TEXT_MAX, WORD_TRANSLATION_MAX, partsOfSpeech } from '@/shared/words'
import { DialogClose, DialogFrame } from '@/client/components/dialog-frame'
import { partOfSpeechMessages } from '@/client/components/part-of-speech/messages'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { decksApi, useDecksCache } from './api'
import { CheckboxField, selectClass } from './checkbox-field'
import type { DeckWordFormValues } from './deck-schemas'
import { deckWordFormMessages } from './messages'
import { tagsOf } from './tags'

const blank: DeckWordFormValues = {
  text: '',
  translationEn: '',
  translationRu: '',
  example: '',
  partOfSpeech: '',
  notes: '',
  tags: '',
  reversed: false,
}

const valuesOf = (word: DeckWord): DeckWordFormValues => ({
  text: word.text,
  translationEn: word.translationEn,
  translationRu: word.translationRu,
  example: word.example ?? '',
  partOfSpeech: word.partOfSpeech ?? '',
  notes: word.notes ?? '',
  tags: word.tags.join(' '),
  reversed: word.kind === 'reversed',
})

/**
 * What is sent. The schema has already trimmed the texts, made empty ones null and split the tags
 * (its output is what the form hands over, typed as the fields' text).
 */
const inputOf = (values: DeckWordFormValues): DeckWordInput => {
  const tags = values.tags as string | string[]
  return {
    text: values.text,
    translationEn: values.translationEn || null,
    translationRu: values.translationRu || null,
    example: values.example || null,
    partOfSpeech: (values.partOfSpeech || null) as PartOfSpeech | null,
    notes: values.notes || null,
    tags: typeof tags === 'string' ? tagsOf(tags) : tags,
    reversed: values.reversed,
  }
}

const isGone = (error: unknown) => error instanceof ApiRequestError && error.status === 404

/** The one dialog to add a word to a deck (`word` null) or edit one. Loaded when first opened. */
export default function WordDialog({
  deckId,
  language,
  word,
  open,
  returnFocus,
  onClose,
}: {
  deckId: number
  /** The deck's language: the word's own. */
  language: string
  word: DeckWord | null
  open: boolean
  returnFocus: RefObject<HTMLElement | null>
  onClose: () => void
}) {
  const t = useStore(deckWordFormMessages)
  const pos = useStore(partOfSpeechMessages)
  const decks = useDecksCache()
  const form = useForm<DeckWordFormValues>({
    resolver: formResolver(() => import('./deck-schemas').then((schemas) => schemas.deckWordFormSchema)),
    defaultValues: word ? valuesOf(word) : blank,
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    (values) => (word ? decksApi.updateWord(deckId, word.id, inputOf(values)) : decksApi.addWord(deckId, inputOf(values))),
    {
      fieldMessage: (_, field) => (field === 'translationEn' ? deckWordFormMessages.get().translationMissing : undefined),
      onSuccess: (saved) => {
        const texts = deckWordFormMessages.get()
        toast({ title: word ? texts.saved({ text: saved.text }) : texts.added({ text: saved.text }), variant: 'success' })
        void decks.refresh()
        onClose()
      },
    },
  )
  const { errors } = form.formState
  const busy = mutation.isPending
  const gone = isGone(mutation.error)

  return (
    <DialogFrame
      open={open}
      busy={busy}
      wide
      title={word ? t.editTitle({ text: word.text }) : t.addTitle}
      lead={word ? t.editLead : t.addLead}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <Field label={t.text} error={errors.text?.message}>
          {(control) => <Input {...control} autoComplete="off" lang={language} maxLength={WORD_TEXT_MAX} {...form.register('text')} />}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t.translationEn} hint={t.translationHint} error={errors.translationEn?.message}>
            {(control) => (
              <Input {...control} autoComplete="off" lang="en" maxLength={WORD_TRANSLATION_MAX} {...form.register('translationEn')} />
            )}
          </Field>
          <Field label={t.translationRu} error={errors.translationRu?.message}>
            {(control) => (
              <Input {...control} autoComplete="off" lang="ru" maxLength={WORD_TRANSLATION_MAX} {...form.register('translationRu')} />
            )}
          </Field>
        </div>
        <Field label={t.example} hint={t.exampleHint} error={errors.example?.message}>
          {(control) => (
            <Textarea {...control} rows={2} className="min-h-16" lang={language} maxLength={WORD_EXAMPLE_MAX} {...form.register('example')} />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t.partOfSpeech} error={errors.partOfSpeech?.message}>
            {(control) => (
              <select {...control} className={selectClass} {...form.register('partOfSpeech')}>
                <option value="">{pos.none}</option>
                {partsOfSpeech.map((part) => (
                  <option key={part} value={part}>
                    {pos[part]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t.tags} hint={t.tagsHint} error={errors.tags?.message}>
            {(control) => <Input {...control} autoComplete="off" {...form.register('tags')} />}
          </Field>
        </div>
        <Field label={t.notes} error={errors.notes?.message}>
          {(control) => <Textarea {...control} rows={2} className="min-h-16" maxLength={DECK_NOTES_MAX} {...form.register('notes')} />}
        </Field>
        <CheckboxField label={t.reversed} hint={t.reversedHint} {...form.register('reversed')} />
        {gone && (
          <Alert variant="error">
            <p className="font-semibold">{t.goneTitle}</p>
            <p className="mt-1">{t.goneBody}</p>
          </Alert>
        )}
        {errorText && !gone && <Alert variant="error">{errorText}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {t.cancel}
            </Button>
          </DialogClose>
          <Button type="submit" disabled={busy || gone}>
            {word ? (busy ? t.saving : t.save) : busy ? t.adding : t.add}
          </Button>
        </div>
      </form>
    </DialogFrame>
  )
}

import { useStore } from '@nanostores/react'
import type { RefObject } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { DECK_NOTES_MAX, type DeckWord } from '@/shared/decks'
import type { DeckWordInput } from '@/shared/decks-schemas'
import { type PartOfSpeech, WORD_EXAMPLE_MAX, WORD_TEXT_MAX, WORD_TRANSLATION_MAX } from '@/shared/words'
import { FormField } from '@/client/components/forms/form-field'
import { PartOfSpeechSelect } from '@/client/components/part-of-speech/part-of-speech-select'
import { WordFormDialog } from '@/client/components/words/word-form-dialog'
import { Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { decksApi, useDecksCache } from './api'
import { CheckboxField } from './checkbox-field'
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
  const busy = mutation.isPending
  const gone = isGone(mutation.error)

  return (
    <FormProvider {...form}>
      <WordFormDialog
        texts={t}
        word={word}
        open={open}
        busy={busy}
        wide
        returnFocus={returnFocus}
        onClose={onClose}
        onSubmit={submit}
        gone={gone}
        error={errorText}
      >
        <FormField name="text" label={t.text}>
          {(control) => <Input {...control} autoComplete="off" lang={language} maxLength={WORD_TEXT_MAX} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField name="translationEn" label={t.translationEn} hint={t.translationHint}>
            {(control) => <Input {...control} autoComplete="off" lang="en" maxLength={WORD_TRANSLATION_MAX} />}
          </FormField>
          <FormField name="translationRu" label={t.translationRu}>
            {(control) => <Input {...control} autoComplete="off" lang="ru" maxLength={WORD_TRANSLATION_MAX} />}
          </FormField>
        </div>
        <FormField name="example" label={t.example} hint={t.exampleHint}>
          {(control) => <Textarea {...control} rows={2} className="min-h-16" lang={language} maxLength={WORD_EXAMPLE_MAX} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField name="partOfSpeech" label={t.partOfSpeech}>
            {(control) => <PartOfSpeechSelect {...control} />}
          </FormField>
          <FormField name="tags" label={t.tags} hint={t.tagsHint}>
            {(control) => <Input {...control} autoComplete="off" />}
          </FormField>
        </div>
        <FormField name="notes" label={t.notes}>
          {(control) => <Textarea {...control} rows={2} className="min-h-16" maxLength={DECK_NOTES_MAX} />}
        </FormField>
        <CheckboxField label={t.reversed} hint={t.reversedHint} {...form.register('reversed')} />
      </WordFormDialog>
    </FormProvider>
  )
}

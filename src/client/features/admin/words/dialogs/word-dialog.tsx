import { useStore } from '@nanostores/react'
import type { RefObject } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import type { PartOfSpeech, Word } from '@/shared/words'
import { FormField } from '@/client/components/forms/form-field'
import { LanguageSelect } from '@/client/components/forms/language-select'
import { ProblemAlert } from '@/client/components/forms/problem-alert'
import { PartOfSpeechSelect } from '@/client/components/part-of-speech/part-of-speech-select'
import { WordFormDialog } from '@/client/components/words/word-form-dialog'
import { Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { type WordValues, useWordsCache, wordsApi } from '@/client/features/admin/words/api'
import { wordFormMessages } from './messages'
import type { WordFormValues } from './word-schemas'

const blank: WordFormValues = { language: 'en', text: '', translationEn: '', translationRu: '', example: '', partOfSpeech: '' }

const valuesOf = (word: Word): WordFormValues => ({
  language: word.language,
  text: word.text,
  translationEn: word.translationEn,
  translationRu: word.translationRu,
  example: word.example ?? '',
  partOfSpeech: word.partOfSpeech ?? '',
  version: word.version,
})

/** What is sent: the schema has already turned '' into null (and trimmed the texts). */
const inputOf = (values: WordFormValues): WordValues => ({
  language: values.language,
  text: values.text,
  translationEn: values.translationEn,
  translationRu: values.translationRu,
  example: values.example || null,
  partOfSpeech: (values.partOfSpeech || null) as PartOfSpeech | null,
})

/** Refused as stale (the word changed since the form was filled), not as a duplicate (a field). */
const isStale = (error: unknown) => error instanceof ApiRequestError && error.status === 409 && !error.fields?.text
const isGone = (error: unknown) => error instanceof ApiRequestError && error.status === 404

/**
 * The one dialog to add a word to a level (`word` null) or edit one. An edit sends the version it
 * read: when someone else saved in between, the server refuses it (409) and the dialog offers to
 * load the current version, as the level form does. Loaded when first opened.
 */
export default function WordDialog({
  levelId,
  word,
  open,
  returnFocus,
  onClose,
  fetchCurrent,
}: {
  levelId: number
  word: Word | null
  open: boolean
  returnFocus: RefObject<HTMLElement | null>
  onClose: () => void
  /** The word as it is now (undefined: deleted), read again for Reload. */
  fetchCurrent: (id: number) => Promise<Word | undefined>
}) {
  const t = useStore(wordFormMessages)
  const words = useWordsCache()
  const form = useForm<WordFormValues>({
    resolver: formResolver(() => import('./word-schemas').then((schemas) => schemas.wordFormSchema)),
    defaultValues: word ? valuesOf(word) : blank,
  })
  const { mutation, submit, errorText, reset } = useFormMutation(
    form,
    (values) => {
      const version = values.version
      return word && version !== undefined
        ? wordsApi.update(word.id, { ...inputOf(values), version })
        : wordsApi.create(levelId, inputOf(values))
    },
    {
      fieldMessage: (error, field) => (error.status === 409 && field === 'text' ? wordFormMessages.get().textTaken : undefined),
      onSuccess: (saved) => {
        const texts = wordFormMessages.get()
        toast({ title: word ? texts.saved({ text: saved.text }) : texts.added({ text: saved.text }), variant: 'success' })
        void words.refresh()
        onClose()
      },
    },
  )
  const busy = mutation.isPending
  const stale = isStale(mutation.error)
  const gone = isGone(mutation.error)

  const reload = async () => {
    if (!word) return
    const current = await fetchCurrent(word.id)
    reset()
    if (current) {
      form.reset(valuesOf(current))
      form.setFocus('text')
    }
  }

  return (
    <FormProvider {...form}>
      <WordFormDialog
        texts={t}
        word={word}
        open={open}
        busy={busy}
        returnFocus={returnFocus}
        onClose={onClose}
        onSubmit={submit}
        gone={gone}
        error={stale ? undefined : errorText}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField name="text" label={t.text}>
            {(control) => <Input {...control} autoComplete="off" />}
          </FormField>
          <FormField name="language" label={t.language}>
            {(control) => <LanguageSelect {...control} />}
          </FormField>
        </div>
        <FormField name="translationEn" label={t.translationEn} hint={t.translationEnHint}>
          {(control) => <Input {...control} autoComplete="off" lang="en" />}
        </FormField>
        <FormField name="translationRu" label={t.translationRu}>
          {(control) => <Input {...control} autoComplete="off" lang="ru" />}
        </FormField>
        <FormField name="example" label={t.example} hint={t.exampleHint}>
          {(control) => <Textarea {...control} rows={2} className="min-h-16" />}
        </FormField>
        <FormField name="partOfSpeech" label={t.partOfSpeech}>
          {(control) => <PartOfSpeechSelect {...control} />}
        </FormField>
        {stale && <ProblemAlert title={t.conflictTitle} body={t.conflictBody} reload={{ label: t.reload, onClick: reload }} />}
      </WordFormDialog>
    </FormProvider>
  )
}

import { useStore } from '@nanostores/react'
import { type RefObject, useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { type PartOfSpeech, type Word, partsOfSpeech } from '@/shared/words'
import { DialogClose, DialogFrame } from '@/client/components/dialog-frame'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field, Input, Textarea } from '@/client/components/ui/field'
import { formResolver } from '@/client/lib/form-resolver'
import { ApiRequestError } from '@/client/lib/http-error'
import { learnableLanguageOptions } from '@/client/lib/language-names'
import { locale } from '@/client/lib/i18n'
import { toast } from '@/client/lib/toast'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { type WordValues, useWordsCache, wordsApi } from '@/client/features/admin/words/api'
import { partOfSpeechMessages } from '@/client/components/part-of-speech/messages'
import { wordFormMessages } from './messages'
import type { WordFormValues } from './word-schemas'

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background px-3 text-sm aria-[invalid=true]:border-error disabled:opacity-50'

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

/** The learnable languages by their names in the interface language, in its alphabetical order. */
function useLanguageOptions() {
  const lang = useStore(locale)
  return useMemo(() => learnableLanguageOptions(lang), [lang])
}

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
  const pos = useStore(partOfSpeechMessages)
  const languages = useLanguageOptions()
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
  const { errors } = form.formState
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
    <DialogFrame
      open={open}
      busy={busy}
      title={word ? t.editTitle({ text: word.text }) : t.addTitle}
      lead={word ? t.editLead : t.addLead}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t.text} error={errors.text?.message}>
            {(control) => <Input {...control} autoComplete="off" {...form.register('text')} />}
          </Field>
          <Field label={t.language} error={errors.language?.message}>
            {(control) => (
              <select {...control} className={selectClass} {...form.register('language')}>
                {languages.map(({ code, name }) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label={t.translationEn} hint={t.translationEnHint} error={errors.translationEn?.message}>
          {(control) => <Input {...control} autoComplete="off" lang="en" {...form.register('translationEn')} />}
        </Field>
        <Field label={t.translationRu} error={errors.translationRu?.message}>
          {(control) => <Input {...control} autoComplete="off" lang="ru" {...form.register('translationRu')} />}
        </Field>
        <Field label={t.example} hint={t.exampleHint} error={errors.example?.message}>
          {(control) => <Textarea {...control} rows={2} className="min-h-16" {...form.register('example')} />}
        </Field>
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
        {stale && (
          <Alert variant="error">
            <p className="font-semibold">{t.conflictTitle}</p>
            <p className="mt-1">{t.conflictBody}</p>
            <Button variant="outline" size="sm" className="mt-3" onClick={() => void reload()}>
              {t.reload}
            </Button>
          </Alert>
        )}
        {gone && (
          <Alert variant="error">
            <p className="font-semibold">{t.goneTitle}</p>
            <p className="mt-1">{t.goneBody}</p>
          </Alert>
        )}
        {errorText && !stale && !gone && <Alert variant="error">{errorText}</Alert>}
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

import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react'
import { type FieldErrors, useForm, useWatch } from 'react-hook-form'
import { IMPORT_MAX_BYTES } from '@/shared/imports'
import { WORD_CSV_COLUMNS } from '@/shared/words'
import { learnerProfileQuery } from '@/client/api/profile'
import { CsvFailure } from '@/client/components/csv-import/csv-failure'
import { DialogClose, DialogFrame } from '@/client/components/dialog-frame'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { cn } from '@/client/lib/cn'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { locale } from '@/client/lib/i18n'
import { learnableLanguageOptions } from '@/client/lib/language-names'
import { apiErrorMessages } from '@/client/lib/messages'
import { useAction } from '@/client/lib/use-action'
import { deckListQuery, decksApi, importQuery, useDecksCache } from './api'
import { selectClass } from './checkbox-field'
import { ImportCheck } from './import-check'
import { ImportStatus, followImport } from './import-status'
import { deckImportMessages } from './messages'

/** What a file is taken for, by its name (and type): the server tells a package by its bytes. */
type FileKind = 'csv' | 'anki' | 'other'
function kindOf(file: File | undefined): FileKind | undefined {
  if (!file) return undefined
  if (/\.(apkg|colpkg)$/i.test(file.name)) return 'anki'
  if (/\.csv$/i.test(file.name) || file.type === 'text/csv') return 'csv'
  return 'other'
}

interface ImportFormValues {
  files: FileList | null
  /** The deck a CSV file goes into ('' until chosen). */
  deckId: string
  /** The language of the decks a package makes. */
  language: string
}

/** The file's problem before anything is sent: none, too large, or not a package or CSV file. */
function fileProblem(files: FileList | null): string | true {
  const t = deckImportMessages.get()
  const file = files?.[0]
  if (!file) return t.fileMissing
  if (kindOf(file) === 'other') return t.notAPackage
  if (file.size > IMPORT_MAX_BYTES) return t.tooLarge
  if (file.size === 0) return t.fileEmpty
  return true
}

/** The job once started: followed here until it ends. */
function Following({ id }: { id: string }) {
  const query = useQuery(importQuery(id))
  const t = useStore(deckImportMessages)
  const errors = useStore(apiErrorMessages)
  if (query.data) return <ImportStatus job={query.data} />
  if (query.isError) return <Alert variant="error">{errorMessage(query.error, errors)}</Alert>
  return (
    <p role="status" className="text-sm font-medium">
      {t.waiting}
    </p>
  )
}

/**
 * "Import" on `/decks`: an Anki package (its decks made in the language chosen, the learner's by
 * default) or a CSV file (into one of the learner's decks), checked here before it is sent (a file
 * is required, at most 300 MB), then followed until it ends. Loaded when first opened.
 */
export default function ImportDialog({
  open,
  language,
  returnFocus,
  onClose,
  onNewDeck,
}: {
  open: boolean
  /** The learner's language: the default of a package's decks. */
  language?: string
  returnFocus?: RefObject<HTMLElement | null>
  onClose: () => void
  /** No deck for a CSV file: make one instead ("New deck"). */
  onNewDeck: () => void
}) {
  const t = useStore(deckImportMessages)
  const errors = useStore(apiErrorMessages)
  const lang = useStore(locale)
  const languages = useMemo(() => learnableLanguageOptions(lang), [lang])
  const decks = useDecksCache()
  const deckList = useQuery(deckListQuery())
  const labelId = useId()
  const chooseId = useId()
  const nameId = useId()
  const hintId = useId()
  const errorId = useId()
  const fileInput = useRef<HTMLInputElement | null>(null)
  const chooseButton = useRef<HTMLButtonElement>(null)
  const [jobId, setJobId] = useState<string | null>(null)
  const [failure, setFailure] = useState<unknown>(null)
  const profile = useQuery(learnerProfileQuery())
  const learnt = profile.data?.language ?? language
  const defaultLanguage = languages.some(({ code }) => code === learnt) ? (learnt as string) : 'en'
  // Focus goes to a refused field by hand: the file's control is its button, not its hidden input.
  const form = useForm<ImportFormValues>({ defaultValues: { files: null, deckId: '', language: defaultLanguage }, shouldFocusError: false })
  // "Check file" (a CSV file and its deck): a dry run, which writes nothing; another file or deck clears it.
  const check = useAction((values: ImportFormValues) => decksApi.checkCsv(Number(values.deckId), values.files?.[0] as File), {
    onMutate: () => setFailure(null),
    onError: (error) => {
      if (error instanceof ApiRequestError && error.status === 404) {
        form.setError('deckId', { message: deckImportMessages.get().deckGone }, { shouldFocus: true })
      }
    },
  })
  const { ref: fileRef, ...fileField } = form.register('files', {
    validate: fileProblem,
    onChange: () => {
      setFailure(null)
      check.reset()
    },
  })
  const refuseFile = (message: string) => {
    form.setError('files', { message })
    chooseButton.current?.focus()
  }
  // The profile read after the dialog opened gives the default, unless one was chosen already.
  useEffect(() => {
    // (setValue: the select is registered only once a package is chosen, and resetField skips a field not registered.)
    if (!form.getFieldState('language').isDirty) form.setValue('language', defaultLanguage)
  }, [form, defaultLanguage])
  const file = useWatch({ control: form.control, name: 'files' })?.[0]
  const kind = kindOf(file)
  const { errors: fieldErrors } = form.formState

  const start = useAction((values: ImportFormValues) => {
    const chosen = values.files?.[0] as File
    return kindOf(chosen) === 'csv'
      ? decksApi.startImport(chosen, { deckId: Number(values.deckId) })
      : decksApi.startImport(chosen, { language: values.language })
  }, {
    onMutate: () => setFailure(null),
    onSuccess: ({ id }) => {
      followImport(id)
      setJobId(id)
      void decks.refresh()
    },
    onError: (error) => {
      const text = deckImportMessages.get()
      if (error instanceof ApiRequestError) {
        if (error.status === 413) return refuseFile(text.tooLarge)
        if (error.status === 415) return refuseFile(text.notAPackage)
        if (error.code === 'validation_failed' && error.fields?.deckId) {
          // A package by its name that is no zip is taken for a CSV file: it is neither.
          if (kind !== 'csv') return refuseFile(text.notAPackage)
          return form.setError('deckId', { message: text.deckMissing }, { shouldFocus: true })
        }
        if (error.code === 'validation_failed' && error.fields?.file) return refuseFile(text.fileEmpty)
      }
      setFailure(error)
    },
  })
  const checkFailure = check.error instanceof ApiRequestError && check.error.status === 404 ? null : check.error
  const busy = start.isPending || check.isPending
  const ownDecks = deckList.data?.decks ?? []
  const fileError = fieldErrors.files?.message

  const focusRefused = (refused: FieldErrors<ImportFormValues>) => {
    if (refused.files) chooseButton.current?.focus()
    else if (refused.deckId) form.setFocus('deckId')
  }
  const canCheck = kind === 'csv' && ownDecks.length > 0
  const checked = check.data

  const again = () => {
    setJobId(null)
    setFailure(null)
    start.reset()
    check.reset()
    form.reset()
  }

  return (
    <DialogFrame open={open} busy={busy} title={t.title} lead={t.lead} returnFocus={returnFocus} onClose={onClose}>
      {jobId ? (
        <div className="grid gap-4">
          {file && <p className="text-sm break-all text-muted-foreground">{t.fileName({ name: file.name })}</p>}
          <Following id={jobId} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={again}>
              {t.another}
            </Button>
            <DialogClose asChild>
              <Button>{t.close}</Button>
            </DialogClose>
          </div>
        </div>
      ) : (
        <form
          method="post"
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit((values) => start.mutate(values), focusRefused)(event)}
        >
          <div className="grid gap-1.5">
            <span id={labelId} className="text-sm font-medium">
              {t.file}
            </span>
            {/*
              The browser's own file button speaks the browser's language (and cannot show focus
              when hidden): the input stays out of sight and out of the tab order, and a button in
              the page's language opens it, with the chosen file's name beside it.
            */}
            <input
              type="file"
              accept=".apkg,.colpkg,.csv,text/csv"
              hidden
              tabIndex={-1}
              aria-hidden="true"
              {...fileField}
              ref={(element) => {
                fileRef(element)
                fileInput.current = element
              }}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button
                ref={chooseButton}
                variant="outline"
                aria-labelledby={`${labelId} ${chooseId}`}
                aria-describedby={[nameId, hintId, fileError && errorId].filter(Boolean).join(' ')}
                className={cn(fileError && 'border-error')}
                disabled={busy}
                onClick={() => fileInput.current?.click()}
              >
                <span id={chooseId}>{t.chooseFile}</span>
              </Button>
              <span id={nameId} className="min-w-0 text-sm break-all text-muted-foreground">
                {file?.name ?? t.noFile}
              </span>
            </div>
            <p id={hintId} className="text-xs text-muted-foreground">
              {t.fileHint}
            </p>
            {fileError && (
              <p id={errorId} role="alert" className="text-sm text-error">
                {fileError}
              </p>
            )}
          </div>
          {kind === 'csv' && (
            <>
              <div className="grid gap-1 text-sm">
                <p className="text-muted-foreground">{t.csvColumns}</p>
                <p>
                  <code className="text-xs break-words">{WORD_CSV_COLUMNS.join(',')}</code>
                </p>
              </div>
              {deckList.data && ownDecks.length === 0 ? (
                <div className="grid gap-2 rounded-lg border border-dashed p-3 text-sm">
                  <p>{t.noDecks}</p>
                  <Button variant="outline" size="sm" className="justify-self-start" onClick={onNewDeck}>
                    {t.newDeck}
                  </Button>
                </div>
              ) : (
                <Field label={t.deck} error={fieldErrors.deckId?.message}>
                  {(control) => (
                    <select
                      {...control}
                      className={selectClass}
                      disabled={busy}
                      {...form.register('deckId', {
                        validate: (value, values) => kindOf(values.files?.[0]) !== 'csv' || value !== '' || deckImportMessages.get().deckMissing,
                        onChange: () => check.reset(),
                      })}
                    >
                      <option value="" disabled>
                        {t.chooseDeck}
                      </option>
                      {ownDecks.map((deck) => (
                        <option key={deck.id} value={String(deck.id)}>
                          {deck.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              )}
              {canCheck && <p className="text-sm text-muted-foreground">{t.checkHint}</p>}
            </>
          )}
          {kind === 'anki' && (
            <Field label={t.language} hint={t.languageHint}>
              {(control) => (
                <select {...control} className={selectClass} disabled={busy} {...form.register('language')}>
                  {languages.map(({ code, name }) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <div aria-live="polite" className="grid gap-3 empty:hidden">
            {checked && <ImportCheck result={checked} />}
          </div>
          {checkFailure && <CsvFailure error={checkFailure} tooLarge={t.checkTooLarge} />}
          {failure !== null && <Alert variant="error">{errorMessage(failure, errors)}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline" disabled={busy}>
                {t.cancel}
              </Button>
            </DialogClose>
            {canCheck && (
              <Button
                variant={checked ? 'outline' : 'primary'}
                disabled={busy}
                onClick={() => void form.handleSubmit((values) => check.mutate(values), focusRefused)()}
              >
                {check.isPending ? t.checking : t.check}
              </Button>
            )}
            <Button
              type="submit"
              variant={canCheck && !checked ? 'outline' : 'primary'}
              disabled={busy || (kind === 'csv' && deckList.data !== undefined && ownDecks.length === 0)}
            >
              {start.isPending ? t.sending : t.import}
            </Button>
          </div>
        </form>
      )}
    </DialogFrame>
  )
}

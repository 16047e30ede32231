import { useStore } from '@nanostores/react'
import { type RefObject, useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { PASSKEY_NAME_MAX_LENGTH, type SignInMethods } from '@/shared/sign-in-methods'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { Button } from '@/client/components/ui/button'
import { Field, Input } from '@/client/components/ui/field'
import { KeyIcon, PlusIcon } from '@/client/components/ui/icons'
import { authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { formatDateTime, formatRelativeTime } from '@/client/lib/format-time'
import { locale } from '@/client/lib/i18n'
import { addPasskey } from '@/client/lib/passkey-registration'
import { PasskeyError, usePasskeysSupported } from '@/client/lib/passkeys'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { type MethodChanged, subheadingClass } from './method-change'
import { RemovableRow, useConfirmedRemoval } from './removable-row'

type Passkey = SignInMethods['passkeys'][number]
type Messages = ReturnType<typeof accountMessages.get>

interface PasskeyNameValues {
  name: string
}

/** The passkeys of the account: each renamed or removed; a new one added on this device. */
export function Passkeys({
  passkeys,
  only,
  headingRef,
  onChanged,
}: {
  passkeys: SignInMethods['passkeys']
  /** The account has no other way to sign in: removing is off (the server refuses it anyway). */
  only: boolean
  headingRef: RefObject<HTMLHeadingElement | null>
  onChanged: MethodChanged
}) {
  const t = useStore(accountMessages)
  const supported = usePasskeysSupported()
  const removal = useConfirmedRemoval({
    remove: (passkey: Passkey) => authApi.removePasskey(passkey.id),
    removed: () => accountMessages.get().passkeyRemoved,
    onChanged,
  })
  const nameOf = (passkey: Passkey) => passkey.name ?? t.unnamedPasskey

  return (
    <div>
      <h3 ref={headingRef} tabIndex={-1} className={subheadingClass}>
        {t.passkeysTitle}
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">{t.passkeysLead}</p>
      {passkeys.length === 0 ? (
        <p className="mt-3 text-sm">{t.noPasskeys}</p>
      ) : (
        <ul className="mt-2 divide-y">
          {passkeys.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              name={nameOf(passkey)}
              only={only}
              onRemove={() => removal.ask(passkey)}
              onChanged={onChanged}
            />
          ))}
        </ul>
      )}
      {supported ? (
        <AddPasskey onChanged={onChanged} />
      ) : (
        <p className="mt-3 text-sm text-muted-foreground">{t.passkeysUnsupported}</p>
      )}
      <ConfirmDialog
        {...removal.dialog}
        title={t.removePasskeyTitle({ name: removal.asked ? nameOf(removal.asked) : '' })}
        description={t.removePasskeyLead}
        confirmLabel={t.removePasskeyConfirm}
        pendingLabel={t.removing}
        returnFocus={headingRef}
      />
    </div>
  )
}

function PasskeyRow({
  passkey,
  name,
  only,
  onRemove,
  onChanged,
}: {
  passkey: Passkey
  name: string
  only: boolean
  onRemove: () => void
  onChanged: MethodChanged
}) {
  const t = useStore(accountMessages)
  const language = useStore(locale)
  const [renaming, setRenaming] = useState(false)
  // Back on the "Rename" button once the form closes (saved or cancelled).
  const renameButton = useRef<HTMLButtonElement>(null)
  const wasRenaming = useRef(false)
  useEffect(() => {
    if (wasRenaming.current && !renaming) renameButton.current?.focus()
    wasRenaming.current = renaming
  }, [renaming])
  if (renaming) {
    return (
      <li className="py-3">
        <RenameForm
          passkey={passkey}
          onDone={async (newName) => {
            setRenaming(false)
            if (newName) await onChanged(t.passkeyRenamed({ name: newName }))
          }}
        />
      </li>
    )
  }
  return (
    <RemovableRow
      icon={<KeyIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" />}
      only={only}
      actions={
        <Button
          ref={renameButton}
          variant="outline"
          size="sm"
          aria-label={t.renamePasskey({ name })}
          onClick={() => setRenaming(true)}
        >
          {t.rename}
        </Button>
      }
      removeLabel={t.removePasskey({ name })}
      removeText={t.remove}
      onRemove={onRemove}
    >
      <p className="font-medium wrap-break-word">
        {name}
        {passkey.backedUp && (
          <span className="ml-2 rounded-full border px-2 py-0.5 text-xs font-normal text-muted-foreground">
            {t.passkeySynced}
          </span>
        )}
      </p>
      <p className="text-sm text-muted-foreground">
        <PasskeyDates passkey={passkey} language={language} t={t} />
      </p>
    </RemovableRow>
  )
}

/** "Added 3 Jan 2026 · Last used 5 minutes ago", with the exact times on hover. */
function PasskeyDates({ passkey, language, t }: { passkey: Passkey; language: string; t: Messages }) {
  const { createdAt, lastUsedAt } = passkey
  return (
    <>
      {createdAt && (
        <time dateTime={createdAt} title={formatDateTime(language, new Date(createdAt))}>
          {t.passkeyCreated({ date: formatDateTime(language, new Date(createdAt), { dateStyle: 'medium' }) })}
        </time>
      )}
      {createdAt && ' · '}
      {lastUsedAt ? (
        <time dateTime={lastUsedAt} title={formatDateTime(language, new Date(lastUsedAt))}>
          {t.passkeyLastUsed({ time: formatRelativeTime(language, new Date(lastUsedAt)) })}
        </time>
      ) : (
        t.passkeyNeverUsed
      )}
    </>
  )
}

/** The passkey's name, in place of its row; Escape or "Cancel" leaves it as it was. */
function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: (newName?: string) => unknown }) {
  const t = useStore(accountMessages)
  const form = useForm<PasskeyNameValues>({
    resolver: formResolver(authSchema('passkeyNameFormSchema')),
    defaultValues: { name: passkey.name ?? '' },
  })
  const { mutation, submit, errorText } = useFormMutation(
    form,
    ({ name }) => authApi.renamePasskey(passkey.id, name),
    { onSuccess: (_, { name }) => onDone(name) },
  )
  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid max-w-sm gap-4">
      <Field label={t.passkeyName} error={form.formState.errors.name?.message}>
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the button just pressed
            autoFocus
            onFocus={(event) => event.currentTarget.select()}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && !mutation.isPending) {
                event.preventDefault()
                void onDone()
              }
            }}
            {...form.register('name')}
          />
        )}
      </Field>
      <FormSubmit label={t.save} pendingLabel={t.saving} pending={mutation.isPending} error={errorText}>
        <Button variant="ghost" disabled={mutation.isPending} onClick={() => void onDone()}>
          {t.cancel}
        </Button>
      </FormSubmit>
    </form>
  )
}

/** "Add a passkey": a name for it, then the browser's own dialog creates it. */
function AddPasskey({ onChanged }: { onChanged: MethodChanged }) {
  const t = useStore(accountMessages)
  const [open, setOpen] = useState(false)
  const openButton = useRef<HTMLButtonElement>(null)
  const wasOpen = useRef(false)
  useEffect(() => {
    if (wasOpen.current && !open) openButton.current?.focus()
    wasOpen.current = open
  }, [open])
  const form = useForm<PasskeyNameValues>({
    resolver: formResolver(authSchema('passkeyNameFormSchema')),
    defaultValues: { name: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ name }) => addPasskey(name), {
    onSuccess: async () => {
      setOpen(false)
      form.reset()
      await onChanged(accountMessages.get().passkeyAdded)
    },
  })
  const close = () => {
    setOpen(false)
    form.reset()
    mutation.reset()
  }
  const reason = mutation.error instanceof PasskeyError ? mutation.error.reason : undefined
  const failureText = passkeyFailureText(reason, t) ?? (reason ? undefined : errorText)

  if (!open) {
    return (
      <Button ref={openButton} variant="outline" className="mt-3" onClick={() => setOpen(true)}>
        <PlusIcon />
        {t.addPasskey}
      </Button>
    )
  }
  return (
    <form method="post"
      noValidate
      onSubmit={(event) => void submit(event)}
      className="mt-3 grid max-w-sm gap-4 rounded-lg border p-4"
    >
      <div className="grid">
        <Field label={t.passkeyName} hint={t.passkeyNameHint} error={form.formState.errors.name?.message}>
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              maxLength={PASSKEY_NAME_MAX_LENGTH}
              placeholder={t.passkeyNamePlaceholder}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- opened by the button just pressed
              autoFocus
              onKeyDown={(event) => {
                if (event.key === 'Escape' && !mutation.isPending) {
                  event.preventDefault()
                  close()
                }
              }}
              {...form.register('name')}
            />
          )}
        </Field>
        {/* Closing the browser's dialog is no failure: said quietly, in a region there from the start. */}
        <p role="status" className="mt-2 text-sm text-muted-foreground empty:mt-0">
          {reason === 'cancelled' ? t.passkeyAddCancelled : ''}
        </p>
      </div>
      <FormSubmit
        label={t.addPasskeyContinue}
        pendingLabel={t.waitingForPasskey}
        pending={mutation.isPending}
        error={failureText}
      >
        <Button variant="ghost" disabled={mutation.isPending} onClick={close}>
          {t.cancel}
        </Button>
      </FormSubmit>
    </form>
  )
}

function passkeyFailureText(reason: PasskeyError['reason'] | undefined, t: Messages): string | undefined {
  switch (reason) {
    case 'notFresh':
      return t.passkeyNotFresh
    case 'alreadyRegistered':
      return t.passkeyAlreadyRegistered
    case 'notCompleted':
    case 'notRegistered':
      return t.passkeyNotCompleted
    case 'browser':
      return t.passkeyBrowserFailed
    default:
      return undefined
  }
}

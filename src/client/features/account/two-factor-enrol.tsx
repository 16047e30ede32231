import { useStore } from '@nanostores/react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { TotpCodeValues } from '@/shared/auth-schemas'
import { FormSubmit } from '@/client/components/forms/form-submit'
import { OneTimeCodeField } from '@/client/components/forms/one-time-code-field'
import { Button } from '@/client/components/ui/button'
import { type TwoFactorSetup, authApi } from '@/client/lib/auth-api'
import { authSchema, formResolver } from '@/client/lib/form-resolver'
import { useFormMutation } from '@/client/lib/use-form-mutation'
import { accountMessages } from './messages'
import { QrCode } from './qr-code'

/**
 * Turning two-step verification on: the QR code, the key and the backup codes, then the first code.
 * Loaded when it is needed (two-factor-section.tsx), with its QR encoder.
 */
export default function Enrol({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup
  onEnabled: () => unknown
  onCancel: () => void
}) {
  const t = useStore(accountMessages)
  const [copied, setCopied] = useState(false)
  const secret = new URL(setup.totpURI).searchParams.get('secret') ?? ''
  const form = useForm<TotpCodeValues>({
    resolver: formResolver(authSchema('totpCodeSchema')),
    defaultValues: { code: '' },
  })
  const { mutation, submit, errorText } = useFormMutation(form, ({ code }) => authApi.verifyTotp(code), {
    onSuccess: onEnabled,
    fieldMessage: () => t.wrongMfaCode,
  })

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start gap-6">
        <QrCode value={setup.totpURI} label={t.qrLabel} />
        <div className="grid max-w-sm gap-2 text-sm">
          <p>{t.mfaScan}</p>
          <p>
            {t.setupKey}: <code className="font-mono break-all select-all">{secret}</code>
          </p>
        </div>
      </div>
      <div>
        <h3 className="font-semibold">{t.backupCodesTitle}</h3>
        <p className="mt-1 text-sm text-muted-foreground">{t.backupCodesLead}</p>
        <ul aria-label={t.backupCodesTitle} className="mt-3 grid max-w-sm grid-cols-2 gap-2 font-mono text-sm">
          {setup.backupCodes.map((code) => (
            <li key={code} className="rounded-md bg-muted px-2 py-1">
              {code}
            </li>
          ))}
        </ul>
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={() =>
            void navigator.clipboard.writeText(setup.backupCodes.join('\n')).then(() => setCopied(true))
          }
        >
          {copied ? t.copied : t.copyCodes}
        </Button>
      </div>
      <form method="post" noValidate onSubmit={(event) => void submit(event)} className="grid max-w-sm gap-4">
        <OneTimeCodeField form={form} label={t.authenticationCode} />
        <FormSubmit label={t.confirmMfa} pendingLabel={t.saving} pending={mutation.isPending} error={errorText}>
          <Button variant="ghost" onClick={onCancel}>
            {t.cancel}
          </Button>
        </FormSubmit>
      </form>
    </div>
  )
}

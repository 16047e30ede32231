import { useStore } from '@nanostores/react'
import { useNavigate } from '@tanstack/react-router'
import { useId, useState } from 'react'
import type { PersonDetail } from '@/shared/people'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { Field, Input } from '@/client/components/ui/field'
import { sessionEnded } from '@/client/lib/auth'
import { ActionDialog, type PersonAction } from './action-dialog'
import { peopleApi, usePeopleCache } from './api'
import { personMessages } from './messages'

type ActionKind = 'role' | 'access' | 'signOut' | 'resend' | 'delete'

/**
 * The role and access actions, each behind its confirmation. What the server refuses on one's own
 * account (removing one's own role, disabling, deleting) is shown off, with why, rather than hidden.
 */
export function PersonActions({ person, self }: { person: PersonDetail; self: boolean }) {
  const t = useStore(personMessages)
  const navigate = useNavigate()
  const people = usePeopleCache()
  const [open, setOpen] = useState<ActionKind | null>(null)
  const [typed, setTyped] = useState('')
  const { id, name, email } = person
  const admin = person.role === 'admin'
  const sessions = person.sessions.length

  const actions: Record<ActionKind, PersonAction> = {
    role: admin
      ? {
          title: t.removeAdminTitle({ name }),
          description: t.removeAdminBody,
          confirmLabel: t.removeAdmin,
          pendingLabel: t.saving,
          run: () => peopleApi.setRole(id, 'user'),
          done: t.removedAdmin({ name }),
          conflict: t.errorLastAdmin,
        }
      : {
          title: t.makeAdminTitle({ name }),
          description: t.makeAdminBody,
          confirmLabel: t.makeAdmin,
          pendingLabel: t.saving,
          run: () => peopleApi.setRole(id, 'admin'),
          done: t.madeAdmin({ name }),
        },
    access: person.disabled
      ? {
          title: t.enableTitle({ name }),
          description: t.enableBody,
          confirmLabel: t.enable,
          pendingLabel: t.enabling,
          run: () => peopleApi.enable(id),
          done: t.enabledDone({ name }),
        }
      : {
          title: t.disableTitle({ name }),
          description: t.disableBody,
          confirmLabel: t.disable,
          pendingLabel: t.disabling,
          run: () => peopleApi.disable(id),
          done: t.disabledDone({ name }),
          conflict: t.errorLastAdmin,
        },
    signOut: {
      title: t.signOutAllTitle({ name }),
      description: self ? `${t.signOutAllBody({ count: sessions })} ${t.signOutAllSelf}` : t.signOutAllBody({ count: sessions }),
      confirmLabel: t.signOutAll,
      pendingLabel: t.signingOut,
      run: () => peopleApi.signOutAll(id),
      done: t.signedOutAll({ name }),
      // This browser's session was among them: the app leaves the admin area as on any sign-out.
      after: () => self && sessionEnded(),
    },
    resend: {
      title: t.resendTitle({ email }),
      description: t.resendBody,
      confirmLabel: t.resend,
      pendingLabel: t.sending,
      run: () => peopleApi.resendConfirmation(id),
      done: t.confirmationSent({ email }),
      conflict: t.errorAlreadyConfirmed,
    },
    delete: {
      title: t.deleteDialogTitle({ name }),
      description: (
        // A long email breaks anywhere rather than leave the dialog.
        <div className="grid gap-3 wrap-break-word">
          <p className="text-muted-foreground">{t.deleteBody}</p>
          <Field label={t.typeEmail({ email })}>
            {(control) => (
              <Input
                {...control}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
              />
            )}
          </Field>
        </div>
      ),
      confirmLabel: t.deleteAccount,
      pendingLabel: t.deleting,
      run: () => peopleApi.remove(id, typed.trim()),
      done: t.deleted({ email }),
      invalid: t.errorWrongEmail,
      conflict: t.errorLastAdmin,
      ready: typed.trim().toLowerCase() === email.toLowerCase(),
      after: async () => {
        await navigate({ to: '/admin/users' })
        people.forget(id)
      },
    },
  }

  const show = (kind: ActionKind) => () => {
    setTyped('')
    setOpen(kind)
  }

  return (
    <>
      <Card title={t.actionsTitle} lead={t.actionsLead}>
        <ul className="divide-y">
          <ActionRow
            label={admin ? t.removeAdmin : t.makeAdmin}
            lead={admin ? t.removeAdminLead : t.makeAdminLead}
            forbidden={self && admin ? t.ownRole : undefined}
            onClick={show('role')}
          />
          <ActionRow
            label={person.disabled ? t.enable : t.disable}
            lead={person.disabled ? t.enableLead : t.disableLead}
            forbidden={self ? t.ownDisable : undefined}
            onClick={show('access')}
          />
          <ActionRow label={t.signOutAll} lead={t.signOutAllLead} onClick={show('signOut')} />
          {!person.emailVerified && <ActionRow label={t.resend} lead={t.resendLead} onClick={show('resend')} />}
        </ul>
      </Card>
      <Card title={t.deleteTitle} danger>
        <ul>
          <ActionRow
            label={t.deleteAccount}
            lead={t.deleteLead}
            forbidden={self ? t.ownDelete : undefined}
            destructive
            onClick={show('delete')}
          />
        </ul>
      </Card>
      <ActionDialog action={open ? actions[open] : null} onClose={() => setOpen(null)} />
    </>
  )
}

/** One action: what it does, and its button; off, with the reason, where the server refuses it. */
function ActionRow({
  label,
  lead,
  forbidden,
  destructive = false,
  onClick,
}: {
  label: string
  lead: string
  forbidden?: string
  destructive?: boolean
  onClick: () => void
}) {
  const reasonId = useId()
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0 flex-1 basis-56 text-sm">
        <p className="text-muted-foreground">{lead}</p>
        {forbidden && (
          <p id={reasonId} className="mt-1 font-medium">
            {forbidden}
          </p>
        )}
      </div>
      <Button
        variant={destructive ? 'destructive' : 'outline'}
        disabled={forbidden !== undefined}
        aria-describedby={forbidden ? reasonId : undefined}
        onClick={onClick}
      >
        {label}
      </Button>
    </li>
  )
}

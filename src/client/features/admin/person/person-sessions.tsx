import { useStore } from '@nanostores/react'
import { useId, useRef, useState } from 'react'
import type { PersonDetail, PersonSession } from '@/shared/people'
import { Button } from '@/client/components/ui/button'
import { currentSessionId } from '@/client/lib/auth'
import { ApiRequestError } from '@/client/lib/http-error'
import { describeUserAgent } from '@/client/lib/user-agent'
import { ActionDialog } from './action-dialog'
import { peopleApi } from './api'
import { personMessages } from './messages'
import { When } from './person-profile'

/** Focus goes to the heading once the button that had it went with the session it signed out. */
const headingClass =
  'text-lg font-semibold outline-hidden focus-visible:underline focus-visible:decoration-ring focus-visible:decoration-3 focus-visible:underline-offset-[0.2em]'

/**
 * The person's active sessions (device, IP, when signed in and last active), each with "Sign out".
 * This browser's own session is marked and has no button: the user menu signs it out.
 */
export function SessionsCard({ person }: { person: PersonDetail }) {
  const t = useStore(personMessages)
  const thisSession = useStore(currentSessionId)
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [revoking, setRevoking] = useState<PersonSession | null>(null)
  const device = (session: PersonSession) => describeUserAgent(session.userAgent) ?? t.unknownDevice
  // This browser's first (on one's own page), then the most recently used.
  const sessions = [...person.sessions].sort(
    (a, b) =>
      Number(b.id === thisSession) - Number(a.id === thisSession) ||
      Date.parse(b.lastActiveAt) - Date.parse(a.lastActiveAt),
  )

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border bg-card p-4 sm:p-6">
      <h2 id={headingId} ref={heading} tabIndex={-1} className={headingClass}>
        {t.sessionsTitle}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{t.sessionsLead}</p>
      {sessions.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">{t.noSessions}</p>
      ) : (
        <ul className="mt-2 divide-y">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 last:pb-0">
              <div className="min-w-0 text-sm">
                <p className="font-medium break-words">
                  {device(session)}
                  {session.id === thisSession && (
                    <span className="ml-2 rounded-full border border-success px-2 py-0.5 text-xs text-success">
                      {t.thisDevice}
                    </span>
                  )}
                </p>
                <p className="break-words text-muted-foreground">
                  {session.ipAddress ?? t.unknownIp} ·{' '}
                  <When iso={session.createdAt}>{(time) => t.sessionCreated({ time })}</When>
                  {', '}
                  <When iso={session.lastActiveAt}>{(time) => t.sessionActive({ time })}</When>
                </p>
              </div>
              {session.id !== thisSession && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t.signOutSessionNamed({ device: device(session) })}
                  onClick={() => setRevoking(session)}
                >
                  {t.signOutSession}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ActionDialog
        action={
          revoking && {
            title: t.revokeTitle,
            description: t.revokeBody({ device: device(revoking), ip: revoking.ipAddress ?? t.unknownIp }),
            confirmLabel: t.signOutSession,
            pendingLabel: t.signingOut,
            // Ended meanwhile (it expired, or someone signed it out first): it is gone all the same.
            run: () =>
              peopleApi.revokeSession(person.id, revoking.id).catch((error: unknown) => {
                if (!(error instanceof ApiRequestError && error.status === 404)) throw error
              }),
            done: t.sessionRevoked,
            returnFocus: heading,
          }
        }
        onClose={() => setRevoking(null)}
      />
    </section>
  )
}

import { useStore } from '@nanostores/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { currentSessionId, signOut } from '@/client/lib/auth'
import { authApi } from '@/client/lib/auth-api'
import { errorMessage } from '@/client/lib/error-message'
import { formatDateTime, formatRelativeTime } from '@/client/lib/format-time'
import { locale } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { describeUserAgent } from '@/client/lib/user-agent'
import { sessionsQuery, useAccountCache } from './api'
import { accountMessages } from './messages'
import { Section } from './section'

export function SessionsSection() {
  const t = useStore(accountMessages)
  const errorTexts = useStore(apiErrorMessages)
  const language = useStore(locale)
  const thisSession = useStore(currentSessionId)
  const navigate = useNavigate()
  const cache = useAccountCache()
  const sessions = useQuery(sessionsQuery(thisSession))
  const revoke = useMutation({
    mutationFn: authApi.revokeSession,
    onSuccess: async () => {
      toast({ title: accountMessages.get().sessionRevoked, variant: 'success' })
      await cache.sessionsChanged()
    },
  })
  const everywhere = useMutation({
    // Revoking leaves this browser's cookies (and their 60 s cached copy): signing out drops them.
    mutationFn: async () => {
      await authApi.revokeAllSessions()
      await signOut()
    },
    onSuccess: () => navigate({ to: '/login' }),
  })
  const failure = revoke.error ?? everywhere.error ?? sessions.error

  // This device first, then the most recently used.
  const list = [...(sessions.data ?? [])].sort(
    (a, b) =>
      Number(b.id === thisSession) - Number(a.id === thisSession) ||
      Date.parse(b.updatedAt) - Date.parse(a.updatedAt),
  )

  return (
    <Section title={t.sessionsTitle} lead={t.sessionsLead}>
      {sessions.isPending && <Skeleton className="h-16 w-full" />}
      <ul className="divide-y">
        {list.map((session) => {
          const device = describeUserAgent(session.userAgent) ?? t.unknownDevice
          const current = session.id === thisSession
          return (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium">
                  {device}
                  {current && (
                    <span className="ml-2 rounded-full border border-success px-2 py-0.5 text-xs text-success">
                      {t.thisDevice}
                    </span>
                  )}
                </p>
                <p className="text-sm text-muted-foreground">
                  {session.ipAddress && `${session.ipAddress} · `}
                  {/* "5 minutes ago", with the exact time on hover. */}
                  <time dateTime={session.updatedAt} title={formatDateTime(language, new Date(session.updatedAt))}>
                    {t.lastActive({ time: formatRelativeTime(language, new Date(session.updatedAt)) })}
                  </time>
                </p>
              </div>
              {!current && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t.revokeSession({ device })}
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(session.id)}
                >
                  {t.revoke}
                </Button>
              )}
            </li>
          )
        })}
      </ul>
      {failure && <Alert variant="error" className="mt-4">{errorMessage(failure, errorTexts)}</Alert>}
      <div className="mt-4 flex flex-wrap items-center gap-3 border-t pt-4">
        <Button variant="outline" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
          {t.signOutEverywhere}
        </Button>
        <span className="text-sm text-muted-foreground">{t.signOutEverywhereLead}</span>
      </div>
    </Section>
  )
}

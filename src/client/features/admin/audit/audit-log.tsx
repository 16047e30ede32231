import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import type { AuditAction, AuditEntry } from '@/shared/audit-log'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Card } from '@/client/components/ui/card'
import { Pagination } from '@/client/components/data-table/pagination'
import { auditQuery } from './api'
import { auditMessages } from './messages'

const route = getRouteApi('/admin/language-levels/')

type Messages = ReturnType<typeof auditMessages.get>

const actionKeys = {
  'level.create': 'levelCreate',
  'level.update': 'levelUpdate',
  'level.delete': 'levelDelete',
  'level.reorder': 'levelReorder',
  'role.grant': 'roleGrant',
  'role.revoke': 'roleRevoke',
  'sign-in-method.link': 'providerLink',
  'sign-in-method.unlink': 'providerUnlink',
  'passkey.add': 'passkeyAdd',
  'passkey.rename': 'passkeyRename',
  'passkey.remove': 'passkeyRemove',
} as const satisfies Record<AuditAction, keyof Messages>

const levelFields = ['code', 'name', 'description'] as const

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}

function targetOf(entry: AuditEntry, t: Messages): string {
  if (entry.action === 'level.reorder') return t.allLevels
  if (entry.targetType === 'language_level' && entry.targetId) {
    const code = field(entry.after, 'code') ?? field(entry.before, 'code')
    return typeof code === 'string' ? t.level({ code }) : t.levelId({ id: entry.targetId })
  }
  if (entry.targetType === 'user') return t.user({ user: entry.targetId ?? '' })
  return [entry.targetType, entry.targetId].filter(Boolean).join(' ')
}

const text = (value: unknown, name: string): string | undefined => {
  const found = field(value, name)
  return typeof found === 'string' && found !== '' ? found : undefined
}

/**
 * What a change was about, under its target: which of a level's fields an update changed, the
 * provider linked or unlinked, the passkey added, renamed or removed.
 */
function detailOf(entry: AuditEntry, t: Messages): string | undefined {
  const { before, after } = entry
  switch (entry.action) {
    case 'level.update': {
      const changed = levelFields.filter((name) => {
        const value = field(after, name)
        return value !== undefined && value !== field(before, name)
      })
      return changed.length > 0 ? t.changedFields({ fields: changed.map((name) => t[name]).join(', ') }) : undefined
    }
    case 'sign-in-method.link':
    case 'sign-in-method.unlink': {
      const provider = text(after, 'provider') ?? text(before, 'provider')
      return provider && t.provider({ provider })
    }
    case 'passkey.add':
    case 'passkey.remove':
      return t.passkey({ name: text(after, 'name') ?? text(before, 'name') ?? t.unnamedPasskey })
    case 'passkey.rename':
      return t.passkeyRenamed({ from: text(before, 'name') ?? t.unnamedPasskey, to: text(after, 'name') ?? '' })
    default:
      return undefined
  }
}

/** "Recent changes": the audit log of administrative changes, newest first, a page at a time. */
export function AuditLog() {
  const t = useStore(auditMessages)
  const ui = useStore(uiMessages)
  const formats = useStore(format)
  const { auditPage } = route.useSearch()
  const navigate = route.useNavigate()
  const query = useQuery({ ...auditQuery(auditPage), placeholderData: keepPreviousData })
  const data = query.data
  const rows = (data?.items ?? []).map((entry) => ({
    id: entry.id,
    at: entry.at,
    time: formats.time(new Date(entry.at), { dateStyle: 'short', timeStyle: 'short' }),
    // No actor: the command line, or a role the server granted itself (ADMIN_EMAILS).
    who: entry.actorEmail ?? entry.actorId ?? t.system,
    action: t[actionKeys[entry.action]] ?? entry.action,
    target: targetOf(entry, t),
    changes: detailOf(entry, t),
  }))

  return (
    <Card title={t.title} lead={t.lead}>
      {query.isPending && (
        <div role="status" aria-label={t.loading} className="grid gap-2">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} className="h-8 w-full" />
          ))}
        </div>
      )}
      {query.isError && !data && (
        <ErrorAlert error={query.error} onRetry={query.refetch} />
      )}
      {data && data.total === 0 && <EmptyState title={ui.noData} hint={t.emptyHint} />}
      {data && data.total > 0 && (
        <div className="grid grid-cols-1 gap-4">
          {/* A table where there is room for one, else a list. */}
          <table className={cn('hidden w-full text-sm sm:table', query.isPlaceholderData && 'opacity-60')}>
            <caption className="sr-only">{t.title}</caption>
            <thead className="border-b text-left text-muted-foreground">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t.time}
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t.who}
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {t.action}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t.target}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {rows.map((row) => (
                <tr key={row.id} className="align-top">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    <time dateTime={row.at}>{row.time}</time>
                  </td>
                  <td className="py-2 pr-3 break-all">{row.who}</td>
                  <td className="py-2 pr-3">{row.action}</td>
                  <td className="py-2 break-words">
                    {row.target}
                    {row.changes && <span className="block text-xs text-muted-foreground">{row.changes}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className={cn('divide-y text-sm sm:hidden', query.isPlaceholderData && 'opacity-60')}>
            {rows.map((row) => (
              <li key={row.id} className="grid gap-0.5 py-2">
                <p className="font-medium break-words">
                  {row.action}: {row.target}
                </p>
                {row.changes && <p className="text-xs text-muted-foreground">{row.changes}</p>}
                <p className="text-muted-foreground break-all">
                  <time dateTime={row.at}>{row.time}</time> · {row.who}
                </p>
              </li>
            ))}
          </ul>
          <Pagination
            label={t.pages}
            page={auditPage}
            pageSize={data.pageSize}
            total={data.total}
            onPage={(target) =>
              void navigate({ search: (prev) => ({ ...prev, auditPage: target }), resetScroll: false })
            }
          />
        </div>
      )}
    </Card>
  )
}

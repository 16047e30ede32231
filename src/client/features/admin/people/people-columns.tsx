import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { createColumnHelper, rowPaginationFeature, rowSortingFeature, tableFeatures } from '@tanstack/react-table'
import type { PersonRow } from '@/shared/people'
import { Avatar } from '@/client/components/ui/avatar'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { peopleAdminMessages } from './messages'

type Messages = ReturnType<typeof peopleAdminMessages.get>

// Searching, filtering, sorting and paging happen on the server; the table keeps their state (from the URL).
export const features = tableFeatures({ rowSortingFeature, rowPaginationFeature })
const column = createColumnHelper<typeof features, PersonRow>()

const badgeTones = {
  admin: 'border-secondary-text/40 text-secondary-text',
  unconfirmed: 'border-warning/50 text-warning',
  twoStepOn: 'border-success/40 text-success',
  disabled: 'border-error/50 bg-error-soft text-error',
} as const

type Badge = keyof typeof badgeTones

function Badge({ tone, children }: { tone: Badge; children: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        badgeTones[tone],
      )}
    >
      {children}
    </span>
  )
}

function badgeText(badge: Badge, t: Messages): string {
  if (badge === 'admin') return t.roleAdmin
  return badge === 'disabled' ? t.disabledBadge : t[badge]
}

/** What sets the person apart from an ordinary, confirmed, enabled account. */
function Badges({ person, withRole, className }: { person: PersonRow; withRole: boolean; className?: string }) {
  const t = useStore(peopleAdminMessages)
  const badges: Badge[] = []
  if (withRole && person.role === 'admin') badges.push('admin')
  if (person.disabled) badges.push('disabled')
  if (!person.emailVerified) badges.push('unconfirmed')
  if (person.twoFactorEnabled) badges.push('twoStepOn')
  if (badges.length === 0) return null
  return (
    <span className={cn('flex flex-wrap gap-1', className)}>
      {badges.map((badge) => (
        <Badge key={badge} tone={badge}>
          {badgeText(badge, t)}
        </Badge>
      ))}
    </span>
  )
}

function NameCell({ person }: { person: PersonRow }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      {/* The name is right beside it: the picture adds nothing for a screen reader. */}
      <span aria-hidden="true" className="flex">
        <Avatar src={person.image} alt={person.name} size="xl" className="ring-1 ring-border" />
      </span>
      <div className="grid min-w-0 gap-0.5">
        <Link
          to="/admin/users/$userId"
          params={{ userId: person.id }}
          // The link covers the whole row, so a click anywhere on it opens the person.
          className="font-medium break-words text-primary-text underline-offset-4 after:absolute after:inset-0 hover:underline"
        >
          {person.name}
        </Link>
        {/* Narrow screens have no email, role or status columns: they show here. */}
        <span className="break-all text-muted-foreground md:hidden">{person.email}</span>
        <Badges person={person} withRole className="mt-1 sm:hidden" />
      </div>
    </div>
  )
}

function RoleCell({ person }: { person: PersonRow }) {
  const t = useStore(peopleAdminMessages)
  return person.role === 'admin' ? <Badge tone="admin">{t.roleAdmin}</Badge> : t.roleUser
}

function TimeCell({ value }: { value: string | null }) {
  const t = useStore(peopleAdminMessages)
  const formats = useStore(format)
  if (value === null) return <span className="text-muted-foreground">{t.never}</span>
  return (
    <time dateTime={value} className="whitespace-nowrap">
      {formats.time(new Date(value), { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  )
}

export const columns = column.columns([
  column.accessor('name', { cell: (info) => <NameCell person={info.row.original} /> }),
  column.accessor('email', { cell: (info) => <span className="break-all">{info.getValue()}</span> }),
  column.accessor('role', { enableSorting: false, cell: (info) => <RoleCell person={info.row.original} /> }),
  column.display({
    id: 'status',
    cell: (info) => <Badges person={info.row.original} withRole={false} />,
  }),
  column.accessor('createdAt', { sortDescFirst: true, cell: (info) => <TimeCell value={info.getValue()} /> }),
  column.accessor('lastSignInAt', { sortDescFirst: true, cell: (info) => <TimeCell value={info.getValue()} /> }),
])

export type ColumnId = 'name' | 'email' | 'role' | 'status' | 'createdAt' | 'lastSignInAt'

/** Narrow screens show fewer columns; the name's cell carries the email and badges there. */
export const columnClass: Record<ColumnId, string> = {
  name: 'min-w-44',
  email: 'hidden md:table-cell',
  role: 'hidden sm:table-cell',
  status: 'hidden sm:table-cell',
  createdAt: 'hidden lg:table-cell',
  lastSignInAt: 'hidden lg:table-cell',
}

export function columnLabel(id: ColumnId, t: Messages): string {
  if (id === 'createdAt') return t.created
  return id === 'lastSignInAt' ? t.lastSignIn : t[id]
}

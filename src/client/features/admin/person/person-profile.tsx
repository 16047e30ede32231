import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import type { PersonDetail } from '@/shared/people'
import { Card } from '@/client/components/ui/card'
import { formatDateTime, formatRelativeTime } from '@/client/lib/format-time'
import { languageName } from '@/client/lib/language-names'
import { locale } from '@/client/lib/i18n'
import { personMessages } from './messages'

/** A time as "5 minutes ago" (a week or more: the date), with the exact time on hover. */
export function When({ iso, children }: { iso: string; children?: (text: string) => ReactNode }) {
  const language = useStore(locale)
  const date = new Date(iso)
  const text = formatRelativeTime(language, date)
  return (
    <time dateTime={iso} title={formatDateTime(language, date)}>
      {children ? children(text) : text}
    </time>
  )
}

/** Terms and their values, side by side. */
function Facts({ rows }: { rows: [term: string, value: ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm sm:gap-x-6">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Email, role, confirmation, two-step verification, status and the times of the account. */
export function AccountCard({ person }: { person: PersonDetail }) {
  const t = useStore(personMessages)
  const maybe = (iso: string | null) => (iso ? <When iso={iso} /> : t.never)
  return (
    <Card title={t.accountTitle}>
      <Facts
        rows={[
          [t.email, <span className="break-all">{person.email}</span>],
          [t.role, person.role === 'admin' ? t.administrator : t.user],
          [t.confirmed, person.emailVerified ? t.yes : t.no],
          [t.twoStep, person.twoFactorEnabled ? t.on : t.off],
          [t.status, person.disabled ? <span className="font-medium text-error">{t.disabled}</span> : t.active],
          [t.created, <When iso={person.createdAt} />],
          [t.lastSignIn, maybe(person.lastSignInAt)],
          [t.lastActive, maybe(person.lastActiveAt)],
        ]}
      />
    </Card>
  )
}

/** The password, each linked provider and each passkey, with when it was added. */
export function SignInMethodsCard({ person }: { person: PersonDetail }) {
  const t = useStore(personMessages)
  const methods = person.signInMethods
  return (
    <Card title={t.methodsTitle} lead={t.methodsLead}>
      {methods.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t.noMethods}</p>
      ) : (
        <ul className="grid gap-2 text-sm">
          {methods.map((method) => (
            <li key={`${method.kind}:${method.id}`} className="flex flex-wrap justify-between gap-x-4">
              <span className="min-w-0 font-medium break-words">
                {method.kind === 'password'
                  ? t.password
                  : method.kind === 'passkey'
                    ? `${t.passkey}: ${method.name || t.unnamedPasskey}`
                    : method.name}
              </span>
              {method.addedAt && (
                <span className="text-muted-foreground">
                  <When iso={method.addedAt}>{(time) => t.added({ time })}</When>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

/** The language the person learns and their levels, as they chose them on their dashboard. */
export function LearnerCard({ person }: { person: PersonDetail }) {
  const t = useStore(personMessages)
  const language = useStore(locale)
  const learner = person.learner
  const level = (value: { code: string; name: string } | null) =>
    value ? `${value.code} · ${value.name}` : t.notChosen
  return (
    <Card title={t.learnerTitle}>
      {learner ? (
        <Facts
          rows={[
            [
              t.language,
              learner.language
                ? languageName(language, learner.language)
                : t.notChosen,
            ],
            [t.currentLevel, level(learner.currentLevel)],
            [t.targetLevel, level(learner.targetLevel)],
          ]}
        />
      ) : (
        <p className="text-sm text-muted-foreground">{t.noLearnerProfile}</p>
      )}
    </Card>
  )
}

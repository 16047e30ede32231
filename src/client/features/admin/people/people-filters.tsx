import { useStore } from '@nanostores/react'
import { type PeopleSort, peopleSorts, yesNo } from '@/shared/people'
import { SelectFilter as Select } from '@/client/components/data-table/select-filter'
import { peopleAdminMessages } from './messages'
import { type PeopleFilter, type PeopleSearch, peopleFilters, roles } from './people-search'

type Messages = ReturnType<typeof peopleAdminMessages.get>

/** The choices of a filter; '' stands for "any", which the URL leaves out. */
function filterOptions(name: PeopleFilter, t: Messages): { value: string; label: string }[] {
  const any = { value: '', label: t.any }
  if (name === 'role') {
    return [any, ...roles.map((role) => ({ value: role, label: role === 'admin' ? t.roleAdmin : t.roleUser }))]
  }
  const words = name === 'mfa' ? { yes: t.on, no: t.off } : { yes: t.yes, no: t.no }
  return [any, ...yesNo.map((answer) => ({ value: answer, label: words[answer] }))]
}

const sortLabels = {
  '-createdAt': 'sortNewest',
  createdAt: 'sortOldest',
  name: 'sortNameAsc',
  '-name': 'sortNameDesc',
  email: 'sortEmailAsc',
  '-email': 'sortEmailDesc',
  '-lastSignInAt': 'sortRecentSignIn',
  lastSignInAt: 'sortOldSignIn',
} as const satisfies Record<PeopleSort, keyof Messages>

/**
 * The filters above the people table (role, confirmed, two-step, disabled), and on narrow screens,
 * where the sortable columns are hidden, the sort as a select too.
 */
export function PeopleFilters({
  search,
  onFilter,
  onSort,
}: {
  search: PeopleSearch
  onFilter: (name: PeopleFilter, value: string | undefined) => void
  onSort: (sort: PeopleSort) => void
}) {
  const t = useStore(peopleAdminMessages)
  return (
    <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <legend className="sr-only">{t.filters}</legend>
      {peopleFilters.map((name) => (
        <Select
          key={name}
          label={t[name]}
          value={search[name] ?? ''}
          options={filterOptions(name, t)}
          onChange={(value) => onFilter(name, value === '' ? undefined : value)}
        />
      ))}
      <Select
        label={t.sortBy}
        value={search.sort}
        options={peopleSorts.map((sort) => ({ value: sort, label: t[sortLabels[sort]] }))}
        onChange={onSort}
        className="col-span-2 md:hidden"
      />
    </fieldset>
  )
}

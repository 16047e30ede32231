import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Command } from 'cmdk'
import { useEffect, useState } from 'react'
import type { PersonRow } from '@/shared/people'
import { peopleListQuery } from '@/client/api/people'
import { Avatar } from '@/client/components/ui/avatar'
import { paletteMessages } from './messages'
import { itemClass } from './palette-parts'

/** How long typing must pause before the palette asks the server for people. */
const PEOPLE_DEBOUNCE_MS = 250
/** As many as fit the palette without scrolling past everything else. */
const PEOPLE_SHOWN = 8

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * The people whose name or email matches what is typed (administrators only): the server searches,
 * as the people table does, once typing pauses; choosing one opens their page. Items of the
 * palette's People group.
 */
export function PeopleResults({
  search,
  onPick,
}: {
  search: string
  onPick: (person: PersonRow) => void
}) {
  const t = useStore(paletteMessages)
  const q = useDebounced(search.trim(), PEOPLE_DEBOUNCE_MS)
  const people = useQuery({
    ...peopleListQuery({ q, pageSize: PEOPLE_SHOWN }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  })
  if (search.trim() === '') return null
  const waiting = q !== search.trim() || people.isFetching
  return (
    <>
      {waiting && (
        <Command.Loading className="px-3 py-2 text-sm text-muted-foreground">{t.searchingPeople}</Command.Loading>
      )}
      {people.data?.items.map((person) => (
        <Command.Item
          key={person.id}
          value={`person ${person.id}`}
          // The server found them by name or email: the palette's own filter matches on the same.
          keywords={[person.name, person.email]}
          onSelect={() => onPick(person)}
          className={itemClass}
        >
          <span aria-hidden="true">
            <Avatar src={person.image} alt={person.name} size="sm" />
          </span>
          <span className="grid min-w-0">
            <span className="truncate">{person.name}</span>
            <span className="truncate text-xs text-muted-foreground">{person.email}</span>
          </span>
        </Command.Item>
      ))}
    </>
  )
}

import { Command, defaultFilter } from 'cmdk'
import type { ReactNode } from 'react'

export const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm aria-selected:bg-accent data-[disabled=true]:opacity-50'

/** One choice of the palette: what it is matched on, and what choosing it does. */
interface PaletteEntry {
  key: string
  value: string
  keywords?: string[]
  onSelect: () => void
  content: ReactNode
}

/** A titled group: its entries, and what it shows whatever is typed (loading, the server's results). */
export interface PaletteSection {
  heading: string
  entries: PaletteEntry[]
  more?: ReactNode
}

/**
 * The sections and entries that match what is typed, best first, as cmdk ranks them (its own
 * scoring): the palette filters here, not in cmdk (`shouldFilter={false}`), so that the list and
 * its first (selected) entry come from one render: cmdk's own filtering re-renders its items and
 * selects the first one in separate updates, and its selection can rest on an item about to be
 * hidden (Enter then does nothing). Ranking here also puts the best section first.
 */
export function rankSections(sections: PaletteSection[], search: string): PaletteSection[] {
  if (search.trim() === '') return sections
  const ranked = sections.map((section) => {
    const scored = section.entries
      .map((entry) => ({ entry, score: defaultFilter(entry.value, search, entry.keywords) }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
    return { section: { ...section, entries: scored.map(({ entry }) => entry) }, best: scored[0]?.score ?? 0 }
  })
  return ranked
    .filter(({ section }) => section.entries.length > 0 || Boolean(section.more))
    .sort((a, b) => b.best - a.best)
    .map(({ section }) => section)
}

/**
 * A titled group of the palette's list; hidden while it shows nothing (the server found no people:
 * cmdk hides only the groups it filters itself).
 */
export function Group({ section }: { section: PaletteSection }) {
  return (
    <Command.Group
      heading={section.heading}
      className="has-[[cmdk-group-items]:empty]:hidden [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
    >
      {section.entries.map((entry) => (
        <Command.Item
          key={entry.key}
          value={entry.value}
          keywords={entry.keywords}
          onSelect={entry.onSelect}
          className={itemClass}
        >
          {entry.content}
        </Command.Item>
      ))}
      {section.more}
    </Command.Group>
  )
}

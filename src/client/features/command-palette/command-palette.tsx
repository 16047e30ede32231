import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Command } from 'cmdk'
import { Dialog } from 'radix-ui'
import { useState } from 'react'
import { SearchIcon } from '@/client/components/ui/icons'
import { orderedLevelsQuery } from '@/client/api/levels'
import { currentUser } from '@/client/lib/auth'
import { changeLanguage, languageNames, languages } from '@/client/lib/i18n'
import { navigationMessages, themeMessages } from '@/client/lib/messages'
import { navigationItems } from '@/client/lib/navigation'
import { setTheme, themePreferences } from '@/client/lib/theme'
import { paletteMessages } from './messages'
import { Group, type PaletteSection, rankSections } from './palette-parts'
import { PeopleResults } from './people-results'
import { restorePaletteFocus } from './palette-state'

export default function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useStore(paletteMessages)
  const pages = useStore(navigationMessages)
  const modes = useStore(themeMessages)
  const navigate = useNavigate()
  const user = useStore(currentUser)
  const isAdmin = user?.role === 'admin'
  // Admins find levels by code or name; read when the palette opens.
  const levels = useQuery({ ...orderedLevelsQuery(), enabled: isAdmin && open })
  // What is typed: admins find people by it on the server. Cleared as the palette closes.
  const [search, setSearch] = useState('')
  if (!open && search !== '') setSearch('')
  const run = (action: () => unknown) => {
    onClose()
    void action()
  }
  const go = (to: string) => () => run(() => navigate({ to }))
  const sections: PaletteSection[] = [
    {
      heading: t.pages,
      entries: navigationItems.map((item) => ({
        key: item.to,
        value: `${pages[item.label]} ${item.to}`,
        onSelect: go(item.to),
        content: pages[item.label],
      })),
    },
  ]
  // A signed-in person's own pages, as the user menu offers them.
  if (user) {
    sections.push({
      heading: t.yourPages,
      entries: [
        { key: 'dashboard', value: `${t.dashboard} /dashboard`, onSelect: go('/dashboard'), content: t.dashboard },
        { key: 'practice', value: `${t.practice} /practice`, onSelect: go('/practice'), content: t.practice },
        { key: 'decks', value: `${t.decks} /decks`, onSelect: go('/decks'), content: t.decks },
        { key: 'assessment', value: `${t.assessment} /assessment`, onSelect: go('/assessment'), content: t.assessment },
        { key: 'account', value: `${t.account} /account`, onSelect: go('/account'), content: t.account },
      ],
    })
  }
  if (isAdmin) {
    sections.push(
      {
        heading: t.levels,
        entries: [
          {
            key: 'all',
            value: `${t.allLevels} /admin/language-levels`,
            onSelect: go('/admin/language-levels'),
            content: t.allLevels,
          },
          {
            key: 'new',
            value: `${t.newLevel} /admin/language-levels/create`,
            onSelect: go('/admin/language-levels/create'),
            content: t.newLevel,
          },
          ...(levels.data ?? []).map((level) => ({
            key: `level ${level.id}`,
            value: `level ${level.id} ${level.code} ${level.name}`,
            keywords: [level.code, level.name],
            onSelect: () =>
              run(() => navigate({ to: '/admin/language-levels/$id', params: { id: String(level.id) } })),
            content: (
              <>
                <span className="min-w-12 font-mono font-semibold">{level.code}</span>
                <span className="truncate">{level.name}</span>
              </>
            ),
          })),
        ],
        more: levels.isPending && (
          <Command.Loading className="px-3 py-2 text-sm text-muted-foreground">{t.loadingLevels}</Command.Loading>
        ),
      },
      {
        heading: t.people,
        entries: [
          { key: 'all', value: `${t.allPeople} /admin/users`, onSelect: go('/admin/users'), content: t.allPeople },
        ],
        // Found by the server: shown as it answers, whatever the palette's own ranking.
        more: (
          <PeopleResults
            search={search}
            onPick={(person) => run(() => navigate({ to: '/admin/users/$userId', params: { userId: person.id } }))}
          />
        ),
      },
    )
  }
  sections.push({
    heading: t.preferences,
    entries: [
      ...themePreferences.map((mode) => ({
        key: `theme ${mode}`,
        value: `theme ${mode} ${modes[mode]}`,
        onSelect: () => run(() => setTheme(mode)),
        content: t.switchTheme({ mode: modes[mode] }),
      })),
      ...languages.map((lng) => ({
        key: `language ${lng}`,
        value: `language ${lng} ${languageNames[lng]}`,
        onSelect: () => run(() => changeLanguage(lng)),
        content: t.switchLanguage({ language: languageNames[lng] }),
      })),
    ],
  })

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            restorePaletteFocus()
          }}
          className="fixed top-[15vh] left-1/2 z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 overflow-hidden rounded-xl border bg-card shadow-2xl">
          <Dialog.Title className="sr-only">{t.title}</Dialog.Title>
          <Dialog.Description className="sr-only">{t.placeholder}</Dialog.Description>
          <Command label={t.title} loop shouldFilter={false}>
            <div className="flex items-center gap-2 border-b px-3">
              <SearchIcon className="size-4 text-muted-foreground" />
              <Command.Input
                value={search}
                onValueChange={setSearch}
                placeholder={t.placeholder}
                aria-label={t.placeholder}
                // The global focus outline, drawn inside: the dialog's edge would clip it outside.
                className="h-12 w-full rounded-md bg-transparent text-sm -outline-offset-2 placeholder:text-muted-foreground"
              />
            </div>
            <Command.List className="max-h-80 overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
                {t.empty}
              </Command.Empty>
              {rankSections(sections, search).map((section) => (
                <Group key={section.heading} section={section} />
              ))}
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

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
import { Group, itemClass } from './palette-parts'
import { PeopleResults } from './people-results'
import { restorePaletteFocus } from './palette-state'

export default function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useStore(paletteMessages)
  const pages = useStore(navigationMessages)
  const modes = useStore(themeMessages)
  const navigate = useNavigate()
  const isAdmin = useStore(currentUser)?.role === 'admin'
  // Admins find levels by code or name; read when the palette opens.
  const levels = useQuery({ ...orderedLevelsQuery(), enabled: isAdmin && open })
  // What is typed: admins find people by it on the server. Cleared as the palette closes.
  const [search, setSearch] = useState('')
  if (!open && search !== '') setSearch('')
  const run = (action: () => unknown) => {
    onClose()
    void action()
  }
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
          <Command label={t.title} loop>
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
              <Group heading={t.pages}>
                {navigationItems.map((item) => (
                  <Command.Item
                    key={item.to}
                    value={`${pages[item.label]} ${item.to}`}
                    onSelect={() => run(() => navigate({ to: item.to }))}
                    className={itemClass}
                  >
                    {pages[item.label]}
                  </Command.Item>
                ))}
              </Group>
              {isAdmin && (
                <Group heading={t.levels}>
                  <Command.Item
                    value={`${t.allLevels} /admin/language-levels`}
                    onSelect={() => run(() => navigate({ to: '/admin/language-levels' }))}
                    className={itemClass}
                  >
                    {t.allLevels}
                  </Command.Item>
                  <Command.Item
                    value={`${t.newLevel} /admin/language-levels/create`}
                    onSelect={() => run(() => navigate({ to: '/admin/language-levels/create' }))}
                    className={itemClass}
                  >
                    {t.newLevel}
                  </Command.Item>
                  {levels.isPending && (
                    <Command.Loading className="px-3 py-2 text-sm text-muted-foreground">{t.loadingLevels}</Command.Loading>
                  )}
                  {levels.data?.map((level) => (
                    <Command.Item
                      key={level.id}
                      value={`level ${level.id} ${level.code} ${level.name}`}
                      keywords={[level.code, level.name]}
                      onSelect={() =>
                        run(() =>
                          navigate({ to: '/admin/language-levels/$id', params: { id: String(level.id) } }),
                        )
                      }
                      className={itemClass}
                    >
                      <span className="min-w-12 font-mono font-semibold">{level.code}</span>
                      <span className="truncate">{level.name}</span>
                    </Command.Item>
                  ))}
                </Group>
              )}
              {isAdmin && (
                <Group heading={t.people}>
                  <Command.Item
                    value={`${t.allPeople} /admin/users`}
                    onSelect={() => run(() => navigate({ to: '/admin/users' }))}
                    className={itemClass}
                  >
                    {t.allPeople}
                  </Command.Item>
                  <PeopleResults
                    search={search}
                    onPick={(person) =>
                      run(() => navigate({ to: '/admin/users/$userId', params: { userId: person.id } }))
                    }
                  />
                </Group>
              )}
              <Group heading={t.preferences}>
                {themePreferences.map((mode) => (
                  <Command.Item
                    key={mode}
                    value={`theme ${mode} ${modes[mode]}`}
                    onSelect={() => run(() => setTheme(mode))}
                    className={itemClass}
                  >
                    {t.switchTheme({ mode: modes[mode] })}
                  </Command.Item>
                ))}
                {languages.map((lng) => (
                  <Command.Item
                    key={lng}
                    value={`language ${lng} ${languageNames[lng]}`}
                    onSelect={() => run(() => changeLanguage(lng))}
                    className={itemClass}
                  >
                    {t.switchLanguage({ language: languageNames[lng] })}
                  </Command.Item>
                ))}
              </Group>
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

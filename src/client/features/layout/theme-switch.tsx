import { useStore } from '@nanostores/react'
import { Button } from '@/client/components/ui/button'
import { MonitorIcon, MoonIcon, SunIcon } from '@/client/components/ui/icons'
import { Tooltip } from '@/client/components/ui/tooltip'
import { themeMessages } from '@/client/lib/messages'
import { type ThemePreference, setTheme, useTheme } from '@/client/lib/theme'
import { layoutMessages } from './messages'

const next: Record<ThemePreference, ThemePreference> = {
  light: 'dark',
  dark: 'system',
  system: 'light',
}
const icons = { light: SunIcon, dark: MoonIcon, system: MonitorIcon }

/** Cycles light → dark → system; the label names the current mode. */
export function ThemeSwitch() {
  const t = useStore(layoutMessages)
  const modes = useStore(themeMessages)
  const mode = useTheme()
  const CurrentIcon = icons[mode]
  const label = t.colourMode({ mode: modes[mode] })
  return (
    <Tooltip label={label} align="end">
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        data-theme-preference={mode}
        onClick={() => setTheme(next[mode])}
      >
        <CurrentIcon />
      </Button>
    </Tooltip>
  )
}

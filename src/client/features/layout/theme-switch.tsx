import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import { MonitorIcon, MoonIcon, SunIcon } from '../../components/ui/icons'
import { Tooltip } from '../../components/ui/tooltip'
import { type ThemePreference, setTheme, useTheme } from '../../lib/theme'

const next: Record<ThemePreference, ThemePreference> = {
  light: 'dark',
  dark: 'system',
  system: 'light',
}
const icons = { light: SunIcon, dark: MoonIcon, system: MonitorIcon }

/** Cycles light → dark → system; the label names the current mode. */
export function ThemeSwitch() {
  const { t } = useTranslation()
  const mode = useTheme()
  const CurrentIcon = icons[mode]
  const label = `${t('theme.label')}: ${t(`theme.${mode}`)}`
  return (
    <Tooltip label={label}>
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

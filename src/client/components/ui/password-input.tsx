import { useStore } from '@nanostores/react'
import { type ComponentProps, useState } from 'react'
import { EyeIcon, EyeOffIcon } from './icons'
import { Input } from './field'
import { uiMessages } from './messages'

/** A password field with a button that shows what was typed. */
export function PasswordInput(props: Omit<ComponentProps<'input'>, 'type'>) {
  const t = useStore(uiMessages)
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <Input {...props} type={visible ? 'text' : 'password'} className="pr-11" />
      <button
        type="button"
        aria-pressed={visible}
        aria-label={t.showPassword}
        onClick={() => setVisible((shown) => !shown)}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground"
      >
        {visible ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  )
}

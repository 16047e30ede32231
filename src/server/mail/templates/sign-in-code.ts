import type { MailLocale } from '@/server/mail/types'
import { formatDuration } from './duration'
import { type RenderedMail, render } from './layout'
import { type ExpiringInput, base, signature } from './parts'

export interface CodeMailInput extends ExpiringInput {
  code: string
}

function checkedCode(code: string): string {
  const trimmed = code.trim()
  if (!trimmed) throw new TypeError('The sign-in code is empty')
  return trimmed
}

const codeExpiry: Record<MailLocale, (duration: string) => string> = {
  en: (duration) => `This code expires in ${duration}.`,
  ru: (duration) => `Код перестанет действовать через ${duration}.`,
}

export function signInCodeMail(input: CodeMailInput): RenderedMail {
  const { locale, app } = base(input)
  const expires = formatDuration(input.expiresInMinutes, locale)
  const code = checkedCode(input.code)
  const texts = {
    en: {
      subject: `Your ${app} sign-in code`,
      heading: 'Your sign-in code',
      intro: `Enter this code to sign in to ${app}:`,
      notes: [
        'If you did not try to sign in, you can ignore this email.',
        'Never share this code with anyone.',
      ],
    },
    ru: {
      subject: `Код для входа в ${app}`,
      heading: 'Ваш код для входа',
      intro: `Введите этот код, чтобы войти в ${app}:`,
      notes: [
        'Если вы не пытались войти, просто проигнорируйте это письмо.',
        'Никому не сообщайте этот код.',
      ],
    },
  }[locale]
  return render(locale, input.appName, {
    ...texts,
    action: { type: 'code', code },
    expiry: codeExpiry[locale](expires),
    signature: signature[locale](app),
  })
}

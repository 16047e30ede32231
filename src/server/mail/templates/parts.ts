import { type MailLocale, mailLocales } from '@/server/mail/types'
import { formatDuration } from './duration'
import type { MailContent } from './layout'

export interface BaseInput {
  appName: string
  locale: MailLocale
}

export interface ExpiringInput extends BaseInput {
  /** How long the link or code stays valid, in whole minutes; written out in words. */
  expiresInMinutes: number
}

/** For emails with a link; the link is the full URL (links land on `${APP_URL}/confirm?…`). */
export interface LinkMailInput extends ExpiringInput {
  link: string
}

/** For a notice with a link to a page of the app (e.g. `${APP_URL}/login`), which never expires. */
export interface NoticeMailInput extends BaseInput {
  link: string
}

/** The email language for an interface language tag such as `ru-RU`; English otherwise. */
export function resolveMailLocale(tag: string | null | undefined): MailLocale {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0]
  return mailLocales.find((locale) => locale === language) ?? 'en'
}

export function checkedLink(link: string): string {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    throw new TypeError('The email link must be an absolute URL')
  }
  // Escaping keeps the link inside its attribute; only the scheme check keeps out javascript: URLs.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`The email link must be an http(s) URL, got ${url.protocol}`)
  }
  return link
}

export function base(input: BaseInput) {
  return { locale: resolveMailLocale(input.locale), app: input.appName }
}

const linkFallback: Record<MailLocale, string> = {
  en: 'If the button does not work, copy this link into your browser:',
  ru: 'Если кнопка не работает, скопируйте эту ссылку в адресную строку браузера:',
}
const linkExpiry: Record<MailLocale, (duration: string) => string> = {
  en: (duration) => `This link expires in ${duration}.`,
  ru: (duration) => `Ссылка перестанет действовать через ${duration}.`,
}
export const signature: Record<MailLocale, (app: string) => string> = {
  en: (app) => `— The ${app} team`,
  ru: (app) => `— Команда ${app}`,
}

/** An email whose action is a link; it says how long the link lasts when given its expiry. */
export function linkContent(
  input: NoticeMailInput,
  texts: Record<
    MailLocale,
    (app: string) => {
      subject: string
      heading: string
      intro: string
      label: string
      notes: string[]
    }
  >,
  expiresInMinutes?: number,
): { locale: MailLocale; content: MailContent } {
  const { locale, app } = base(input)
  const { label, ...rest } = texts[locale](app)
  return {
    locale,
    content: {
      ...rest,
      action: { type: 'link', url: checkedLink(input.link), label, fallback: linkFallback[locale] },
      ...(expiresInMinutes === undefined
        ? {}
        : { expiry: linkExpiry[locale](formatDuration(expiresInMinutes, locale)) }),
      signature: signature[locale](app),
    },
  }
}

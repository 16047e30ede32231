import type { MailLocale } from '@/server/mail/types'
import { type RenderedMail, render } from './layout'
import { type NoticeMailInput, linkContent } from './parts'

/** What an administrator changed about an account (docs/product.md §9, "People and access"). */
export type AccessChange =
  | 'admin-granted'
  | 'admin-revoked'
  | 'disabled'
  | 'enabled'
  | 'signed-out'
  | 'session-revoked'
  | 'deleted'

export interface AccountAccessChangedMailInput extends NoticeMailInput {
  change: AccessChange
}

interface Texts {
  subject: (app: string) => string
  heading: string
  intro: (app: string) => string
  label: string
}

const texts: Record<MailLocale, Record<AccessChange, Texts>> = {
  en: {
    'admin-granted': {
      subject: (app) => `You are now a ${app} administrator`,
      heading: 'You are now an administrator',
      intro: (app) => `An administrator gave your ${app} account the administrator role: you can now manage language levels and people.`,
      label: 'Open Lingua',
    },
    'admin-revoked': {
      subject: (app) => `You are no longer a ${app} administrator`,
      heading: 'You are no longer an administrator',
      intro: (app) => `An administrator removed the administrator role from your ${app} account. Your account itself is unchanged.`,
      label: 'Open Lingua',
    },
    disabled: {
      subject: (app) => `Your ${app} account was disabled`,
      heading: 'Your account was disabled',
      intro: (app) => `An administrator disabled your ${app} account: you were signed out everywhere, and signing in is refused until it is enabled again.`,
      label: 'Visit Lingua',
    },
    enabled: {
      subject: (app) => `Your ${app} account was enabled`,
      heading: 'Your account was enabled',
      intro: (app) => `An administrator enabled your ${app} account again: you can sign in as before.`,
      label: 'Sign in',
    },
    'signed-out': {
      subject: (app) => `You were signed out of ${app} everywhere`,
      heading: 'You were signed out everywhere',
      intro: (app) => `An administrator ended every session of your ${app} account. Sign in again to go on.`,
      label: 'Sign in',
    },
    'session-revoked': {
      subject: (app) => `A ${app} session of yours was ended`,
      heading: 'A session was ended',
      intro: (app) => `An administrator ended one of the sessions of your ${app} account. If that device was yours, sign in there again.`,
      label: 'Sign in',
    },
    deleted: {
      subject: (app) => `Your ${app} account was deleted`,
      heading: 'Your account was deleted',
      intro: (app) => `An administrator deleted your ${app} account and everything it held. You can register again with this address at any time.`,
      label: 'Visit Lingua',
    },
  },
  ru: {
    'admin-granted': {
      subject: (app) => `Теперь вы администратор ${app}`,
      heading: 'Теперь вы администратор',
      intro: (app) => `Администратор выдал вашей учётной записи ${app} роль администратора: теперь вы можете управлять уровнями и людьми.`,
      label: 'Открыть Lingua',
    },
    'admin-revoked': {
      subject: (app) => `Вы больше не администратор ${app}`,
      heading: 'Вы больше не администратор',
      intro: (app) => `Администратор снял с вашей учётной записи ${app} роль администратора. Сама учётная запись не изменилась.`,
      label: 'Открыть Lingua',
    },
    disabled: {
      subject: (app) => `Ваша учётная запись ${app} отключена`,
      heading: 'Учётная запись отключена',
      intro: (app) => `Администратор отключил вашу учётную запись ${app}: все сеансы завершены, а вход невозможен, пока её снова не включат.`,
      label: 'Перейти в Lingua',
    },
    enabled: {
      subject: (app) => `Ваша учётная запись ${app} снова включена`,
      heading: 'Учётная запись снова включена',
      intro: (app) => `Администратор снова включил вашу учётную запись ${app}: входить можно как прежде.`,
      label: 'Войти',
    },
    'signed-out': {
      subject: (app) => `Вы вышли из ${app} на всех устройствах`,
      heading: 'Вы вышли на всех устройствах',
      intro: (app) => `Администратор завершил все сеансы вашей учётной записи ${app}. Чтобы продолжить, войдите снова.`,
      label: 'Войти',
    },
    'session-revoked': {
      subject: (app) => `Один из ваших сеансов ${app} завершён`,
      heading: 'Сеанс завершён',
      intro: (app) => `Администратор завершил один из сеансов вашей учётной записи ${app}. Если это было ваше устройство, войдите на нём снова.`,
      label: 'Войти',
    },
    deleted: {
      subject: (app) => `Ваша учётная запись ${app} удалена`,
      heading: 'Учётная запись удалена',
      intro: (app) => `Администратор удалил вашу учётную запись ${app} и всё, что в ней было. Зарегистрироваться с этим адресом снова можно в любое время.`,
      label: 'Перейти в Lingua',
    },
  },
}

const notes: Record<MailLocale, string[]> = {
  en: ['If you have questions about this change, reply to the administrators of this site.'],
  ru: ['Если у вас есть вопросы об этом изменении, обратитесь к администраторам сайта.'],
}

/** To the person, after an administrator changed their role or access. */
export function accountAccessChangedMail(input: AccountAccessChangedMailInput): RenderedMail {
  const content = (locale: MailLocale) => (app: string) => {
    const text = texts[locale][input.change]
    return { subject: text.subject(app), heading: text.heading, intro: text.intro(app), label: text.label, notes: notes[locale] }
  }
  const { locale, content: rendered } = linkContent(input, { en: content('en'), ru: content('ru') })
  return render(locale, input.appName, rendered)
}

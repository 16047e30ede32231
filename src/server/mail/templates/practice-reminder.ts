import type { MailLocale } from '@/server/mail/types'
import { type RenderedMail, render } from './layout'
import { type NoticeMailInput, checkedLink, linkContent } from './parts'

/** The daily reminder (docs/decisions/0035-reminders.md); `link` is `/practice`. */
export interface PracticeReminderMailInput extends NoticeMailInput {
  /** Cards waiting: due now, and the new words still allowed today. */
  count: number
  /** The page that turns the reminders off (a button there, never the visit alone). */
  stopLink: string
  /** The one-click address of `List-Unsubscribe` (RFC 8058): a POST to it turns them off. */
  oneClickUrl: string
}

const stopLabel: Record<MailLocale, string> = {
  en: 'Stop these reminders',
  ru: 'Отключить напоминания',
}

/** PRODUCT §13: the subject is exactly this, in both languages. */
export function practiceReminderMail(input: PracticeReminderMailInput): RenderedMail {
  const n = input.count
  const { locale, content } = linkContent(input, {
    en: (app) => ({
      subject: `Time to practise: ${n} cards are waiting`,
      heading: 'Time to practise',
      intro: `${n} cards are waiting for you in ${app}: the reviews due now and today’s new words. A few minutes now bring you closer to your daily goal.`,
      label: 'Practise now',
      notes: ['You get this email because the daily reminder is on in your account. It comes at most once a day, and only when something is waiting.'],
    }),
    ru: (app) => ({
      subject: `Пора заниматься: ${n} карточек ждут`,
      heading: 'Пора заниматься',
      intro: `В ${app} вас ждут карточки (${n}): повторения, которым пришёл срок, и новые слова на сегодня. Несколько минут сейчас приблизят вас к дневной цели.`,
      label: 'Начать занятие',
      notes: ['Вы получили это письмо, потому что в вашем аккаунте включено ежедневное напоминание. Оно приходит не чаще раза в день и только когда есть чем заняться.'],
    }),
  })
  const footerLink = { label: stopLabel[locale], url: checkedLink(input.stopLink) }
  return render(locale, input.appName, { ...content, footerLink })
}

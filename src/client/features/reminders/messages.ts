import { i18n } from '@/client/lib/i18n'

/** `/reminders/unsubscribe`: the page of a reminder email's "Stop these reminders" link. */
export const reminderMessages = i18n('reminders', {
  title: 'Daily reminders',
  lead: 'Lingua emails you a reminder to practise on the days cards are waiting for you.',
  question: 'Stop these emails? You can turn them on again on your account page.',
  stop: 'Stop these reminders',
  stopping: 'Stopping…',
  stopped: 'Reminders are off: no more reminder emails will come.',
  turnOnAgain: 'To turn them on again, go to “Practice” on your account page.',
  openAccount: 'Open your account',
  checking: 'Checking the link…',
  invalid:
    'This link is not valid. Open the whole link from the email again, or turn the reminders off on your account page, under “Practice”.',
  noToken: 'Open the “Stop these reminders” link of a reminder email, or turn the reminders off on your account page, under “Practice”.',
})

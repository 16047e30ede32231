import { type RenderedMail, render } from './layout'
import { type LinkMailInput, linkContent } from './parts'

export interface ChangeEmailMailInput extends LinkMailInput {
  /** The address the account moves to, shown so the reader knows what they approve. */
  newEmail?: string
}

export function changeEmailMail(input: ChangeEmailMailInput): RenderedMail {
  const newEmail = input.newEmail?.trim()
  const { locale, content } = linkContent(
    input,
    {
      en: (app) => ({
        subject: `Confirm your email change for ${app}`,
        heading: 'Confirm your email change',
        intro: `You asked to change the email address of your ${app} account${newEmail ? ` to ${newEmail}` : ''}. To confirm the change, open this link.`,
        label: 'Confirm the change',
        notes: ['If you did not ask for this, ignore this email: your address stays the same.'],
      }),
      ru: (app) => ({
        subject: `Подтвердите смену адреса почты в ${app}`,
        heading: 'Подтвердите смену адреса почты',
        intro: `Вы запросили смену адреса электронной почты вашей учётной записи в ${app}${newEmail ? ` на ${newEmail}` : ''}. Чтобы подтвердить её, откройте ссылку.`,
        label: 'Подтвердить смену',
        notes: ['Если вы этого не делали, проигнорируйте письмо — адрес останется прежним.'],
      }),
    },
    input.expiresInMinutes,
  )
  return render(locale, input.appName, content)
}

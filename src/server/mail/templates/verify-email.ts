import { type RenderedMail, render } from './layout'
import { type LinkMailInput, linkContent } from './parts'

export function verifyEmailMail(input: LinkMailInput): RenderedMail {
  const { locale, content } = linkContent(
    input,
    {
      en: (app) => ({
        subject: `Confirm your email address for ${app}`,
        heading: 'Confirm your email address',
        intro: `Welcome to ${app}! Confirm your email address to finish creating your account.`,
        label: 'Confirm email address',
        notes: ['If you did not create an account, you can ignore this email.'],
      }),
      ru: (app) => ({
        subject: `Подтвердите адрес электронной почты для ${app}`,
        heading: 'Подтвердите адрес электронной почты',
        intro: `Добро пожаловать в ${app}! Подтвердите адрес электронной почты, чтобы завершить регистрацию.`,
        label: 'Подтвердить адрес',
        notes: ['Если вы не регистрировались, просто проигнорируйте это письмо.'],
      }),
    },
    input.expiresInMinutes,
  )
  return render(locale, input.appName, content)
}

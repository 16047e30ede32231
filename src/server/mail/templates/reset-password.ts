import { type RenderedMail, render } from './layout'
import { type LinkMailInput, linkContent } from './parts'

export function resetPasswordMail(input: LinkMailInput): RenderedMail {
  const { locale, content } = linkContent(
    input,
    {
      en: (app) => ({
        subject: `Reset your ${app} password`,
        heading: 'Reset your password',
        intro: `Someone asked to reset the password of your ${app} account. To choose a new password, open this link.`,
        label: 'Choose a new password',
        notes: ['If you did not ask for this, ignore this email: your password stays the same.'],
      }),
      ru: (app) => ({
        subject: `Сброс пароля в ${app}`,
        heading: 'Сброс пароля',
        intro: `Мы получили запрос на сброс пароля вашей учётной записи в ${app}. Чтобы задать новый пароль, откройте ссылку.`,
        label: 'Задать новый пароль',
        notes: [
          'Если вы не запрашивали сброс, проигнорируйте это письмо — пароль останется прежним.',
        ],
      }),
    },
    input.expiresInMinutes,
  )
  return render(locale, input.appName, content)
}

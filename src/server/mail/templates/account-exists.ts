import { type RenderedMail, render } from './layout'
import { type NoticeMailInput, linkContent } from './parts'

/**
 * To the owner of an address someone tried to register again. The sign-up itself answers as for a
 * new account (no enumeration); only the mailbox learns that the account exists.
 */
export function accountExistsMail(input: NoticeMailInput): RenderedMail {
  const { locale, content } = linkContent(
    input,
    {
      en: (app) => ({
        subject: `You already have a ${app} account`,
        heading: 'You already have an account',
        intro: `Someone, probably you, tried to create a ${app} account with this email address. There already is an account with it, so no new one was created.`,
        label: 'Sign in',
        notes: [
          'Forgot your password? Choose “Forgot password?” on the sign-in page, or sign in with a code sent to this address.',
          'If it was not you, you can ignore this email: your account has not changed.',
        ],
      }),
      ru: (app) => ({
        subject: `У вас уже есть учётная запись в ${app}`,
        heading: 'У вас уже есть учётная запись',
        intro: `Кто-то, вероятно вы, пытался зарегистрироваться в ${app} с этим адресом электронной почты. Учётная запись с этим адресом уже есть, поэтому новая не создана.`,
        label: 'Войти',
        notes: [
          'Забыли пароль? На странице входа его можно восстановить или войти по коду, который придёт на этот адрес.',
          'Если это были не вы, просто проигнорируйте письмо — с вашей учётной записью ничего не произошло.',
        ],
      }),
    },
  )
  return render(locale, input.appName, content)
}

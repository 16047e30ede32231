import type { MailLocale } from '@/server/mail/types'
import { type RenderedMail, render } from './layout'
import { type NoticeMailInput, linkContent } from './parts'

/** What changed among an account's ways of signing in. */
export type SignInMethodChange = 'provider-linked' | 'provider-unlinked' | 'passkey-added' | 'passkey-renamed' | 'passkey-removed'

export interface SignInMethodsChangedMailInput extends NoticeMailInput {
  change: SignInMethodChange
  /** The provider's or the passkey's name. */
  name: string
}

const what: Record<MailLocale, Record<SignInMethodChange, (name: string) => string>> = {
  en: {
    'provider-linked': (name) => `${name} was linked to your account: you can now sign in with it.`,
    'provider-unlinked': (name) => `${name} was unlinked from your account: it no longer signs you in.`,
    'passkey-added': (name) => `A passkey (“${name}”) was added to your account.`,
    'passkey-renamed': (name) => `A passkey of your account was renamed to “${name}”.`,
    'passkey-removed': (name) => `The passkey “${name}” was removed from your account.`,
  },
  ru: {
    'provider-linked': (name) => `К вашей учётной записи привязан ${name}: теперь через него можно входить.`,
    'provider-unlinked': (name) => `${name} отвязан от вашей учётной записи: через него больше нельзя войти.`,
    'passkey-added': (name) => `К вашей учётной записи добавлен ключ доступа («${name}»).`,
    'passkey-renamed': (name) => `Ключ доступа вашей учётной записи переименован в «${name}».`,
    'passkey-removed': (name) => `Ключ доступа «${name}» удалён из вашей учётной записи.`,
  },
}

/** To the owner, after a change of their sign-in methods (docs/product.md §9): a security notice. */
export function signInMethodsChangedMail(input: SignInMethodsChangedMailInput): RenderedMail {
  const { locale, content } = linkContent(input, {
    en: (app) => ({
      subject: `Your ${app} sign-in methods changed`,
      heading: 'Your sign-in methods changed',
      intro: what.en[input.change](input.name),
      label: 'Review sign-in methods',
      notes: [
        'If it was you, there is nothing to do.',
        'If it was not you, reset your password at once, then remove what you do not recognise under “Sign-in methods” on your account page.',
      ],
    }),
    ru: (app) => ({
      subject: `Способы входа в ${app} изменились`,
      heading: 'Способы входа изменились',
      intro: what.ru[input.change](input.name),
      label: 'Проверить способы входа',
      notes: [
        'Если это были вы, ничего делать не нужно.',
        'Если это были не вы, сразу смените пароль, а затем удалите незнакомое в разделе «Способы входа» на странице учётной записи.',
      ],
    }),
  })
  return render(locale, input.appName, content)
}

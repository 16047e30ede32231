import { describe, expect, it } from 'vitest'
import {
  type MailKind,
  type MailLocale,
  type RenderedMail,
  mailKinds,
  escapeHtml,
  mailLocales,
  renderMail,
  resolveMailLocale,
} from '@/server/mail/index'

const appName = 'Lingua'
const link = 'https://lingua.test/confirm?type=signup&token=tok_123'
const code = '123456'

function render(kind: MailKind, locale: MailLocale): RenderedMail {
  switch (kind) {
    case 'sign-in-code':
      return renderMail({ kind, appName, locale, code, expiresInMinutes: 10 })
    case 'account-exists':
      return renderMail({ kind, appName, locale, link: 'https://lingua.test/login' })
    case 'sign-in-methods-changed':
      return renderMail({ kind, appName, locale, link: 'https://lingua.test/account', change: 'passkey-added', name: 'MacBook' })
    case 'account-access-changed':
      return renderMail({ kind, appName, locale, link: 'https://lingua.test/login', change: 'disabled' })
    case 'practice-reminder':
      return renderMail({
        kind,
        appName,
        locale,
        link: 'https://lingua.test/practice',
        count: 7,
        stopLink: 'https://lingua.test/reminders/unsubscribe?token=t',
        oneClickUrl: 'https://lingua.test/api/reminders/unsubscribe?token=t',
      })
    case 'change-email':
      return renderMail({ kind, appName, locale, link, expiresInMinutes: 60, newEmail: 'new@example.com' })
    default:
      return renderMail({ kind, appName, locale, link, expiresInMinutes: 60 })
  }
}

const paragraphs = (mail: RenderedMail) => mail.text.trim().split('\n\n')
const cyrillic = /[а-яё]/i
/** A paragraph that is only the link or the code: the same in every language. */
const literal = (paragraph: string) => /^https?:\/\/\S+$/.test(paragraph) || /^\d{6}$/.test(paragraph)

describe('emails in both languages', () => {
  it('are offered in English and Russian', () => {
    expect([...mailLocales].sort()).toEqual(['en', 'ru'])
    expect(resolveMailLocale('ru-RU')).toBe('ru')
    expect(resolveMailLocale('fr')).toBe('en')
  })

  describe.each(mailKinds)('%s', (kind) => {
    const english = render(kind, 'en')
    const russian = render(kind, 'ru')

    it('has the same parts in both languages', () => {
      expect(paragraphs(russian).length).toBe(paragraphs(english).length)
      const notices: Partial<Record<MailKind, string>> = {
        'account-exists': 'https://lingua.test/login',
        'sign-in-methods-changed': 'https://lingua.test/account',
        'account-access-changed': 'https://lingua.test/login',
        'practice-reminder': 'https://lingua.test/practice',
      }
      const action = kind === 'sign-in-code' ? code : (notices[kind] ?? link)
      for (const mail of [english, russian]) {
        expect(mail.text).toContain(action)
        expect(mail.html).toContain(escapeHtml(action))
      }
      expect(english.html).toContain('<html lang="en"')
      expect(russian.html).toContain('<html lang="ru"')
    })

    it('is written wholly in Russian for Russian, and in English for English', () => {
      expect(russian.subject).toMatch(cyrillic)
      expect(russian.subject).not.toBe(english.subject)
      for (const paragraph of paragraphs(russian)) {
        if (!literal(paragraph)) expect(paragraph).toMatch(cyrillic)
      }
      expect(english.subject).not.toMatch(cyrillic)
      expect(english.text).not.toMatch(cyrillic)
      expect(english.html).not.toMatch(cyrillic)
    })
  })
})

import type { MailKind, MailMessage } from '@/server/mail/types'
import { type AccountAccessChangedMailInput, accountAccessChangedMail } from './account-access-changed'
import { accountExistsMail } from './account-exists'
import { type ChangeEmailMailInput, changeEmailMail } from './change-email'
import type { RenderedMail } from './layout'
import type { LinkMailInput, NoticeMailInput } from './parts'
import { type PracticeReminderMailInput, practiceReminderMail } from './practice-reminder'
import { resetPasswordMail } from './reset-password'
import { type CodeMailInput, signInCodeMail } from './sign-in-code'
import { type SignInMethodsChangedMailInput, signInMethodsChangedMail } from './sign-in-methods-changed'
import { verifyEmailMail } from './verify-email'

export { formatDuration } from './duration'
export { type RenderedMail, escapeHtml } from './layout'
export { resolveMailLocale } from './parts'
export type { SignInMethodChange } from './sign-in-methods-changed'
export type { AccessChange } from './account-access-changed'

export type MailTemplateInput =
  | ({ kind: 'verify-email' } & LinkMailInput)
  | ({ kind: 'reset-password' } & LinkMailInput)
  | ({ kind: 'change-email' } & ChangeEmailMailInput)
  | ({ kind: 'sign-in-code' } & CodeMailInput)
  | ({ kind: 'account-exists' } & NoticeMailInput)
  | ({ kind: 'sign-in-methods-changed' } & SignInMethodsChangedMailInput)
  | ({ kind: 'account-access-changed' } & AccountAccessChangedMailInput)
  | ({ kind: 'practice-reminder' } & PracticeReminderMailInput)

/** Renders the email of any kind. */
export function renderMail(input: MailTemplateInput): RenderedMail {
  switch (input.kind) {
    case 'verify-email':
      return verifyEmailMail(input)
    case 'reset-password':
      return resetPasswordMail(input)
    case 'change-email':
      return changeEmailMail(input)
    case 'sign-in-code':
      return signInCodeMail(input)
    case 'account-exists':
      return accountExistsMail(input)
    case 'sign-in-methods-changed':
      return signInMethodsChangedMail(input)
    case 'account-access-changed':
      return accountAccessChangedMail(input)
    case 'practice-reminder':
      return practiceReminderMail(input)
  }
}

/** Renders an email and addresses it: the result goes straight to `Mailer.send`. */
export function composeMail(to: string, input: MailTemplateInput): MailMessage {
  const kind: MailKind = input.kind
  const rendered = renderMail(input)
  if (input.kind === 'sign-in-code') return { kind, to, ...rendered, code: input.code.trim() }
  if (input.kind === 'practice-reminder') {
    // RFC 8058: mail clients offer "Unsubscribe", which POSTs `List-Unsubscribe=One-Click` there.
    const headers = { 'List-Unsubscribe': `<${input.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    return { kind, to, ...rendered, link: input.link, headers }
  }
  return { kind, to, ...rendered, link: input.link }
}

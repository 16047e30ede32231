export {
  createMailer,
  defaultSmtpTimeouts,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
  type SmtpTimeouts,
} from './mailer'
export { outboxDir, readOutbox, type OutboxEntry, type OutboxFilter } from './outbox'
export {
  accountExistsMail,
  changeEmailMail,
  composeMail,
  escapeHtml,
  formatDuration,
  renderMail,
  resetPasswordMail,
  resolveMailLocale,
  signInCodeMail,
  verifyEmailMail,
  type ChangeEmailMailInput,
  type CodeMailInput,
  type LinkMailInput,
  type MailTemplateInput,
  type NoticeMailInput,
  type RenderedMail,
} from './templates/index'
export {
  createMemoryMailThrottle,
  createRedisMailThrottle,
  mailThrottleWindowMs,
  throttleKey,
  type MailThrottle,
  type MemoryMailThrottleOptions,
} from './throttle'
export {
  mailKinds,
  mailLocales,
  type MailKind,
  type MailLocale,
  type MailMessage,
} from './types'

export {
  createMailer,
  defaultSmtpTimeouts,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
  type SmtpTimeouts,
} from './mailer.js'
export { outboxDir, readOutbox, type OutboxEntry, type OutboxFilter } from './outbox.js'
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
} from './templates.js'
export {
  createMemoryMailThrottle,
  createRedisMailThrottle,
  mailThrottleWindowMs,
  throttleKey,
  type MailThrottle,
  type MemoryMailThrottleOptions,
} from './throttle.js'
export {
  mailKinds,
  mailLocales,
  type MailKind,
  type MailLocale,
  type MailMessage,
} from './types.js'

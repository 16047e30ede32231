export {
  createMailer,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
} from './mailer'
export { readOutbox } from './outbox'
export {
  composeMail,
  escapeHtml,
  formatDuration,
  renderMail,
  resolveMailLocale,
  type MailTemplateInput,
  type SignInMethodChange,
  type AccessChange,
  type RenderedMail,
} from './templates/index'
export {
  createMemoryMailThrottle,
  createRedisMailThrottle,
  type MailThrottle,
} from './throttle'
export {
  mailKinds,
  mailLocales,
  type MailKind,
  type MailLocale,
} from './types'

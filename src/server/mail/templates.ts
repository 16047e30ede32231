import { type MailKind, type MailLocale, type MailMessage, mailLocales } from './types'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

interface BaseInput {
  appName: string
  locale: MailLocale
}

interface ExpiringInput extends BaseInput {
  /** How long the link or code stays valid, in whole minutes; written out in words. */
  expiresInMinutes: number
}

/** For emails with a link; the link is the full URL (links land on `${APP_URL}/confirm?…`). */
export interface LinkMailInput extends ExpiringInput {
  link: string
}

/** For a notice with a link to a page of the app (e.g. `${APP_URL}/login`), which never expires. */
export interface NoticeMailInput extends BaseInput {
  link: string
}

export interface ChangeEmailMailInput extends LinkMailInput {
  /** The address the account moves to, shown so the reader knows what they approve. */
  newEmail?: string
}

export interface CodeMailInput extends ExpiringInput {
  code: string
}

export type MailTemplateInput =
  | ({ kind: 'verify-email' } & LinkMailInput)
  | ({ kind: 'reset-password' } & LinkMailInput)
  | ({ kind: 'change-email' } & ChangeEmailMailInput)
  | ({ kind: 'sign-in-code' } & CodeMailInput)
  | ({ kind: 'account-exists' } & NoticeMailInput)

/** The parts of one email; the text and the HTML versions are both rendered from them. */
interface MailContent {
  subject: string
  heading: string
  intro: string
  action:
    { type: 'link'; url: string; label: string; fallback: string } | { type: 'code'; code: string }
  /** How long the link or code stays valid; none for a notice. */
  expiry?: string
  notes: string[]
  signature: string
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char)
}

/** The email language for an interface language tag such as `ru-RU`; English otherwise. */
export function resolveMailLocale(tag: string | null | undefined): MailLocale {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0]
  return mailLocales.find((locale) => locale === language) ?? 'en'
}

type DurationUnit = 'minute' | 'hour' | 'day'
type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

// Russian after «через» takes the accusative: 1/21 минуту, 2–4/22 минуты, 5–20/25 минут.
const unitNames: Record<MailLocale, Record<DurationUnit, PluralForms>> = {
  en: {
    minute: { one: 'minute', other: 'minutes' },
    hour: { one: 'hour', other: 'hours' },
    day: { one: 'day', other: 'days' },
  },
  ru: {
    minute: { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' },
    hour: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
    day: { one: 'день', few: 'дня', many: 'дней', other: 'дня' },
  },
}

const pluralRules = new Map<MailLocale, Intl.PluralRules>()
function pluralForm(locale: MailLocale, value: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale)
  if (!rules) {
    rules = new Intl.PluralRules(locale)
    pluralRules.set(locale, rules)
  }
  return rules.select(value)
}

/**
 * A validity period in words: "60 minutes", "2 hours", "3 days" / "21 минуту", "2 часа".
 * Minutes up to two hours (so the usual one-hour link reads "60 minutes"), then whole hours, then
 * whole days from two days on.
 */
export function formatDuration(minutes: number, locale: MailLocale): string {
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw new RangeError(`expiresInMinutes must be a positive whole number, got ${minutes}`)
  }
  let value = minutes
  let unit: DurationUnit = 'minute'
  if (minutes >= 2 * 1440 && minutes % 1440 === 0) {
    value = minutes / 1440
    unit = 'day'
  } else if (minutes >= 120 && minutes % 60 === 0) {
    value = minutes / 60
    unit = 'hour'
  }
  const forms = unitNames[locale][unit]
  const name = forms[pluralForm(locale, value)] ?? forms.other
  return `${new Intl.NumberFormat(locale).format(value)} ${name}`
}

function checkedLink(link: string): string {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    throw new TypeError('The email link must be an absolute URL')
  }
  // Escaping keeps the link inside its attribute; only the scheme check keeps out javascript: URLs.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`The email link must be an http(s) URL, got ${url.protocol}`)
  }
  return link
}

function checkedCode(code: string): string {
  const trimmed = code.trim()
  if (!trimmed) throw new TypeError('The sign-in code is empty')
  return trimmed
}

function base(input: BaseInput) {
  return { locale: resolveMailLocale(input.locale), app: input.appName }
}

const linkFallback: Record<MailLocale, string> = {
  en: 'If the button does not work, copy this link into your browser:',
  ru: 'Если кнопка не работает, скопируйте эту ссылку в адресную строку браузера:',
}
const linkExpiry: Record<MailLocale, (duration: string) => string> = {
  en: (duration) => `This link expires in ${duration}.`,
  ru: (duration) => `Ссылка перестанет действовать через ${duration}.`,
}
const codeExpiry: Record<MailLocale, (duration: string) => string> = {
  en: (duration) => `This code expires in ${duration}.`,
  ru: (duration) => `Код перестанет действовать через ${duration}.`,
}
const signature: Record<MailLocale, (app: string) => string> = {
  en: (app) => `— The ${app} team`,
  ru: (app) => `— Команда ${app}`,
}

/** An email whose action is a link; it says how long the link lasts when given its expiry. */
function linkContent(
  input: NoticeMailInput,
  texts: Record<
    MailLocale,
    (app: string) => {
      subject: string
      heading: string
      intro: string
      label: string
      notes: string[]
    }
  >,
  expiresInMinutes?: number,
): { locale: MailLocale; content: MailContent } {
  const { locale, app } = base(input)
  const { label, ...rest } = texts[locale](app)
  return {
    locale,
    content: {
      ...rest,
      action: { type: 'link', url: checkedLink(input.link), label, fallback: linkFallback[locale] },
      ...(expiresInMinutes === undefined
        ? {}
        : { expiry: linkExpiry[locale](formatDuration(expiresInMinutes, locale)) }),
      signature: signature[locale](app),
    },
  }
}

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

export function signInCodeMail(input: CodeMailInput): RenderedMail {
  const { locale, app } = base(input)
  const expires = formatDuration(input.expiresInMinutes, locale)
  const code = checkedCode(input.code)
  const texts = {
    en: {
      subject: `Your ${app} sign-in code`,
      heading: 'Your sign-in code',
      intro: `Enter this code to sign in to ${app}:`,
      notes: [
        'If you did not try to sign in, you can ignore this email.',
        'Never share this code with anyone.',
      ],
    },
    ru: {
      subject: `Код для входа в ${app}`,
      heading: 'Ваш код для входа',
      intro: `Введите этот код, чтобы войти в ${app}:`,
      notes: [
        'Если вы не пытались войти, просто проигнорируйте это письмо.',
        'Никому не сообщайте этот код.',
      ],
    },
  }[locale]
  return render(locale, input.appName, {
    ...texts,
    action: { type: 'code', code },
    expiry: codeExpiry[locale](expires),
    signature: signature[locale](app),
  })
}

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
  }
}

/** Renders an email and addresses it: the result goes straight to `Mailer.send`. */
export function composeMail(to: string, input: MailTemplateInput): MailMessage {
  const kind: MailKind = input.kind
  const rendered = renderMail(input)
  return input.kind === 'sign-in-code'
    ? { kind, to, ...rendered, code: input.code.trim() }
    : { kind, to, ...rendered, link: input.link }
}

function render(locale: MailLocale, appName: string, content: MailContent): RenderedMail {
  return {
    subject: content.subject,
    text: renderText(content),
    html: renderHtml(locale, appName, content),
  }
}

function renderText(content: MailContent): string {
  const action = content.action.type === 'link' ? content.action.url : content.action.code
  return [
    content.heading,
    content.intro,
    action,
    ...(content.expiry === undefined ? [] : [content.expiry]),
    ...content.notes,
    content.signature,
  ]
    .join('\n\n')
    .concat('\n')
}

// Email clients ignore style sheets unevenly: inline styles only, one column, no images.
const font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"

function renderHtml(locale: MailLocale, appName: string, content: MailContent): string {
  const e = escapeHtml
  const { action } = content
  const actionHtml =
    action.type === 'link'
      ? `<p style="margin:24px 0;"><a href="${e(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background-color:#15803d;color:#ffffff;font-weight:600;text-decoration:none;">${e(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#475569;">${e(action.fallback)}<br><a href="${e(action.url)}" style="color:#1d4ed8;word-break:break-all;">${e(action.url)}</a></p>`
      : `<p style="margin:24px 0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:6px;color:#0f172a;">${e(action.code)}</p>`
  const notes = content.notes
    .map((note) => `<p style="margin:0 0 12px;font-size:14px;color:#475569;">${e(note)}</p>`)
    .join('\n')
  return `<!doctype html>
<html lang="${locale}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${e(content.subject)}</title>
</head>
<body style="margin:0;padding:24px 12px;background-color:#f1f5f9;">
<div role="article" aria-roledescription="email" aria-label="${e(content.subject)}" lang="${locale}" style="max-width:560px;margin:0 auto;padding:32px 24px;border-radius:8px;background-color:#ffffff;color:#0f172a;font-family:${font};font-size:16px;line-height:1.5;">
<p style="margin:0 0 24px;font-size:14px;font-weight:700;color:#15803d;">${e(appName)}</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#0f172a;">${e(content.heading)}</h1>
<p style="margin:0 0 16px;">${e(content.intro)}</p>
${actionHtml}
${content.expiry === undefined ? '' : `<p style="margin:0 0 24px;">${e(content.expiry)}</p>\n`}${notes}
<p style="margin:24px 0 0;font-size:14px;color:#475569;">${e(content.signature)}</p>
</div>
</body>
</html>
`
}

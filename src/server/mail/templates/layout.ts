import type { MailLocale } from '@/server/mail/types'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

/** The parts of one email; the text and the HTML versions are both rendered from them. */
export interface MailContent {
  subject: string
  heading: string
  intro: string
  action:
    { type: 'link'; url: string; label: string; fallback: string } | { type: 'code'; code: string }
  /** How long the link or code stays valid; none for a notice. */
  expiry?: string
  notes: string[]
  /** A second, quieter link after the notes (a reminder's "Stop these reminders"). */
  footerLink?: { label: string; url: string }
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

/** The text and the HTML version of an email, from its parts. */
export function render(locale: MailLocale, appName: string, content: MailContent): RenderedMail {
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
    ...(content.footerLink ? [`${content.footerLink.label}: ${content.footerLink.url}`] : []),
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
    .concat(content.footerLink ? [`<p style="margin:0 0 12px;font-size:14px;"><a href="${e(content.footerLink.url)}" style="color:#1d4ed8;">${e(content.footerLink.label)}</a></p>`] : [])
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

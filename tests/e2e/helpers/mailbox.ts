// The browser tests' mail server: a real SMTP server that the app sends every email to
// (SMTP_URL), and a small HTTP endpoint where the tests read what arrived. Started by Playwright
// as a web server (playwright.config.ts), so the app and every test worker share it.
import { createServer } from 'node:http'
import { startSmtpServer } from '../../helpers/smtp'

const smtpPort = Number(process.env.E2E_SMTP_PORT)
const httpPort = Number(process.env.E2E_MAILBOX_PORT)

const smtp = await startSmtpServer({ port: smtpPort })

const http = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://mailbox')
  if (url.pathname === '/health') {
    response.end('ok')
    return
  }
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase()
    const messages = smtp.messages
      .filter((mail) => !to || mail.envelope.to.some((address) => address.toLowerCase() === to))
      .map(({ envelope, from, to: header, subject, text, html }) => ({
        envelope,
        from,
        to: header,
        subject,
        text,
        html,
      }))
    response.setHeader('Content-Type', 'application/json')
    response.end(JSON.stringify(messages))
    return
  }
  response.statusCode = 404
  response.end()
})
http.listen(httpPort, '127.0.0.1')

const stop = () => {
  http.close()
  void smtp.stop().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

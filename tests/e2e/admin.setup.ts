import { test as setup } from '@playwright/test'
import { confirmPath, password, subjects, waitForMail } from './helpers/accounts'
import { adminEmail, adminName, adminStatePath } from './helpers/admin'
import { expect } from './helpers/fixtures'

// Signs the administrator of the shared server up once per run (its email is in ADMIN_EMAILS, so
// confirming it grants the role) and keeps its signed-in state for the admin journeys.

setup('the administrator signs up and confirms the email', async ({ request, baseURL }) => {
  const origin = baseURL ?? ''
  const signUp = await request.post('/api/auth/sign-up/email', {
    headers: { Origin: origin },
    data: { name: adminName, email: adminEmail, password },
  })
  expect(signUp.status()).toBe(200)
  const link = new URL(confirmPath(await waitForMail(adminEmail, subjects.confirm)), origin)
  const verified = await request.get(
    `/api/auth/verify-email?token=${encodeURIComponent(link.searchParams.get('token') ?? '')}`,
  )
  expect(verified.status()).toBe(200)
  const session = await request.get('/api/auth/get-session?disableCookieCache=true')
  const answer = (await session.json()) as { user?: { role?: string } } | null
  expect(answer?.user?.role, 'the role ADMIN_EMAILS grants').toBe('admin')
  await request.storageState({ path: adminStatePath })
})

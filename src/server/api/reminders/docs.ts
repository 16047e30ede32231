import { z } from 'zod/mini'
import type { ReminderState } from '@/shared/reminders'
import { describe, form, json } from '@/server/openapi/describe'
import { answer } from '@/server/openapi/schemas'

const tags = ['Practice']

const reminderStateSchema = answer<ReminderState>('ReminderState', "Whether the daily practice reminder of the token's learner is on.")(
  z.object({ reminderEnabled: z.boolean() }),
)

const token =
  '`token` is the one of the reminder email (its "Stop these reminders" link and its `List-Unsubscribe` header): it names one learner and is signed by the server; anything else is refused with 400 `invalid_token`, and nothing changes.'

/** Optional: a mail client's form (or multipart) body, or an empty JSON object (the page's button), or none. */
const oneClickForm = form({ 'List-Unsubscribe': '`One-Click` (RFC 8058).' }, [], 'Optional: what a mail client posts, or nothing.')
const oneClickBody = {
  ...oneClickForm,
  required: false,
  content: {
    ...oneClickForm.content,
    'multipart/form-data': oneClickForm.content['application/x-www-form-urlencoded'],
    'application/json': { schema: { type: 'object' as const, properties: {} } },
  },
} as ReturnType<typeof form>

export const describeReminderState = describe({
  operationId: 'getReminderState',
  summary: 'Whether the reminders of an unsubscribe link are on',
  description: `Reads without signing in, and changes nothing (mail scanners follow links): the page of the email's link shows a button, which POSTs. ${token}`,
  tags,
  access: 'public',
  responses: { 200: json(reminderStateSchema, 'Whether they are on.') },
  errors: [503],
})

export const describeUnsubscribe = describe({
  operationId: 'unsubscribeReminders',
  summary: 'Turn the daily reminders off (one-click)',
  description: `Turns off the daily practice reminder by email of the token's learner, without signing in: the RFC 8058 one-click POST of a mail client (body \`List-Unsubscribe=One-Click\`, form-encoded or multipart) and the button of the email's page alike; a POST without a body does the same. Turning off what is off answers the same. ${token} Like every write, it is refused from another site's page (403): a mail provider posts from its servers, without an Origin.`,
  tags,
  access: 'public',
  requestBody: oneClickBody,
  responses: { 200: json(reminderStateSchema, 'They are off.') },
  errors: [503],
})

/**
 * The daily practice reminder by email (PRODUCT §13; docs/decisions/0035-reminders.md): what the
 * server, the page that turns it off and the tests share.
 */

/** `GET` says whether a token's reminders are on; `POST` (RFC 8058 one-click, or the page's button) turns them off. */
export const REMINDER_UNSUBSCRIBE_PATH = '/api/reminders/unsubscribe'
/** The page the email's "Stop these reminders" opens: a button, since a visit alone must change nothing. */
export const REMINDER_STOP_PAGE = '/reminders/unsubscribe'
/** A reminder goes within this many minutes of its hour's start (or of being turned on within its hour). */
export const REMINDER_WINDOW_MINUTES = 5

/** The answer of both: whether the reminders of the token's learner are on. */
export interface ReminderState {
  reminderEnabled: boolean
}

/** Sessions last 400 days (docs/product.md §5) and are renewed once a day while used. */
export const SESSION_LIFETIME_SECONDS = 400 * 24 * 60 * 60
export const VERIFY_EMAIL_EXPIRES_SECONDS = 24 * 60 * 60
export const RESET_PASSWORD_EXPIRES_SECONDS = 60 * 60
export const SIGN_IN_CODE_EXPIRES_SECONDS = 10 * 60

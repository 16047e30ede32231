import { customType } from 'drizzle-orm/pg-core'

/** Binary data (PostgreSQL `bytea`), read and written as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres gives a Buffer, PGlite a Uint8Array: one type for the app.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

import { sql } from 'drizzle-orm'
import type { Db } from './client'

/**
 * Statements built once per database and name, with placeholders (`param`) for their values, and
 * prepared on the database (a named statement: PostgreSQL parses and plans it once per
 * connection). Drizzle's query building and PostgreSQL's parsing cost more than many a statement's
 * execution: the busiest requests use these.
 */
const statements = new WeakMap<Db, Map<string, unknown>>()

/** The statement `prepare` makes under `name` for `db`, made at its first use. */
export function preparedOnce<T>(db: Db, name: string, prepare: (name: string) => T): T {
  let byName = statements.get(db)
  if (!byName) statements.set(db, (byName = new Map<string, unknown>()))
  let statement = byName.get(name) as T | undefined
  if (statement === undefined) byName.set(name, (statement = prepare(name)))
  return statement
}

/** A value of a prepared statement, given when it runs. */
export const param = (name: string) => sql.placeholder(name)

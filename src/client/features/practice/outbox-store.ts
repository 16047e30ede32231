import { createStore, get, update } from 'idb-keyval'
import type { GradeToSend } from './api/grades'
import type { OutboxStore } from './outbox'

/**
 * The outbox in IndexedDB (idb-keyval: a few hundred bytes over the raw API, and its `update`
 * reads and writes in one transaction, so two tabs adding at once lose nothing). One list per
 * person: answers given under one account are never sent under another. Loaded with the first
 * visit to `/practice`, after the page shows.
 */
const database = () => createStore('lingua-practice', 'outbox')

export function indexedDbStore(userId: string): OutboxStore {
  const store = database()
  const key = `grades:${userId}`
  return {
    read: async () => (await get<GradeToSend[]>(key, store)) ?? [],
    add: (entry) => update<GradeToSend[]>(key, (entries = []) => [...entries, entry], store),
    remove: async (clientId) => {
      let found = false
      await update<GradeToSend[]>(
        key,
        (entries = []) => {
          const rest = entries.filter((entry) => entry.clientId !== clientId)
          found = rest.length < entries.length
          return rest
        },
        store,
      )
      return found
    },
  }
}
